import type Database from 'better-sqlite3';

/**
 * A version 8 store kept each entity row twice: in doc_entities, a table row per name, and in
 * doc_entity_rows, each document's rows as one array, marked stale by triggers when another writer
 * (an older kb) changed doc_entities. Version 9 keeps the arrays only (writing a row per name was
 * four fifths of the cost of storing a document's entities), with each document's places beside its
 * array and the rows with aliases in doc_aliases. This brings one forward in place, in the caller's
 * transaction: arrays made where none stands or one is stale, places and aliases copied,
 * doc_entities (its index and triggers with it) dropped. `columns`: doc_entities' columns (sections
 * and places came during version 8).
 */
export function entityRowsOfVersion8(db: Database.Database, columns: ReadonlySet<string>): void {
  const sections = columns.has('sections') ? 'sections' : `''`;
  db.exec(`
    INSERT OR REPLACE INTO doc_entity_rows (raw_path, rows)
      SELECT raw_path, json_group_array(json_array(key, surface, json(aliases), count, json(snippets), salient, ${sections}))
      FROM doc_entities
      WHERE raw_path NOT IN (SELECT raw_path FROM doc_entity_rows WHERE rows IS NOT NULL)
      GROUP BY raw_path;
    DELETE FROM doc_entity_rows WHERE rows IS NULL;
    INSERT INTO doc_aliases (raw_path, surface, aliases)
      SELECT raw_path, surface, aliases FROM doc_entities WHERE aliases != '[]' ORDER BY rowid;
  `);
  if (columns.has('places'))
    db.exec(`
      UPDATE doc_entity_rows SET places = coalesce(
        (SELECT json_group_array(json_array(key, places)) FROM doc_entities e
          WHERE e.raw_path = doc_entity_rows.raw_path AND e.places != ''
          HAVING count(*) > 0),
        '');
    `);
  db.exec(`DROP TABLE doc_entities`);
}
