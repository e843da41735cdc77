"""A small, dependency-free implementation of Okapi BM25 ranking.

BM25 scores a document D against a query Q as

    score(D, Q) = sum over query terms q of
        IDF(q) * f(q, D) * (k1 + 1) / (f(q, D) + k1 * (1 - b + b * |D| / avgdl))

where f(q, D) is the frequency of q in D, |D| is the length of D in tokens,
and avgdl is the average document length in the collection. IDF uses the
Lucene-style variant, which is always positive:

    IDF(q) = ln((N - n(q) + 0.5) / (n(q) + 0.5) + 1)

Typical parameters are k1 between 1.2 and 2.0 and b = 0.75. SQLite FTS5's
built-in bm25() function uses k1 = 1.2 and b = 0.75, which are also the
defaults here.

The tokenizer is deliberately simple: lower-case, split on anything that is
not a letter or digit. Chinese text has no spaces between words, so for
Chinese documents pass a segmenting tokenizer (for example one built on
jieba) instead; as a crude fallback this module can emit overlapping
character bigrams for runs of CJK characters.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Callable, Iterable, List, Sequence, Tuple

Tokenizer = Callable[[str], List[str]]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def simple_tokenize(text: str) -> List[str]:
    """Lower-case ``text`` and split it into alphanumeric tokens.

    Runs of CJK characters are turned into overlapping bigrams, so that
    "向量数据库" yields ["向量", "量数", "数据", "据库"]. A single CJK
    character is kept as a unigram. This is the same idea as Lucene's
    CJKAnalyzer and a reasonable fallback when no word segmenter is available.
    """
    tokens: List[str] = []
    for word in _WORD.findall(text.lower()):
        if not _CJK.search(word):
            tokens.append(word)
            continue
        # Split mixed words such as "bm25检索" into CJK and non-CJK runs.
        for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", word):
            if _CJK.match(run):
                if len(run) == 1:
                    tokens.append(run)
                else:
                    tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
            else:
                tokens.append(run)
    return tokens


class BM25:
    """An in-memory BM25 index over a fixed list of documents.

    Example:
        >>> docs = [
        ...     "Luhmann kept a Zettelkasten of about 90,000 cards",
        ...     "Obsidian stores notes as Markdown and shows backlinks",
        ...     "BM25 ranks documents by term frequency and rarity",
        ... ]
        >>> index = BM25(docs)
        >>> index.search("zettelkasten cards", top_k=1)[0][0]
        0
    """

    def __init__(
        self,
        documents: Iterable[str],
        k1: float = 1.2,
        b: float = 0.75,
        tokenizer: Tokenizer = simple_tokenize,
    ) -> None:
        """Tokenize ``documents`` and precompute term statistics.

        Args:
            documents: the texts to index; their positions become document ids.
            k1: term-frequency saturation; 0 ignores frequency entirely.
            b: length normalisation strength, from 0 (none) to 1 (full).
            tokenizer: function turning a string into a list of terms.
        """
        if k1 < 0:
            raise ValueError("k1 must be non-negative")
        if not 0.0 <= b <= 1.0:
            raise ValueError("b must be between 0 and 1")
        self.k1 = k1
        self.b = b
        self.tokenizer = tokenizer
        self.term_freqs: List[Counter] = []
        self.doc_lengths: List[int] = []
        self.doc_freqs: Counter = Counter()
        for doc in documents:
            tokens = tokenizer(doc)
            counts = Counter(tokens)
            self.term_freqs.append(counts)
            self.doc_lengths.append(len(tokens))
            self.doc_freqs.update(counts.keys())
        self.n_docs = len(self.term_freqs)
        total = sum(self.doc_lengths)
        self.avgdl = total / self.n_docs if self.n_docs else 0.0

    def idf(self, term: str) -> float:
        """Return the inverse document frequency of ``term`` (always > 0)."""
        n = self.doc_freqs.get(term, 0)
        return math.log((self.n_docs - n + 0.5) / (n + 0.5) + 1.0)

    def score(self, query: str, doc_id: int) -> float:
        """Return the BM25 score of document ``doc_id`` for ``query``.

        Repeated query terms are counted once per occurrence, as in the
        classic formulation without query-term weighting.
        """
        counts = self.term_freqs[doc_id]
        length = self.doc_lengths[doc_id]
        norm = self.k1 * (1.0 - self.b + self.b * length / self.avgdl) if self.avgdl else self.k1
        total = 0.0
        for term in self.tokenizer(query):
            tf = counts.get(term, 0)
            if tf == 0:
                continue
            total += self.idf(term) * tf * (self.k1 + 1.0) / (tf + norm)
        return total

    def search(self, query: str, top_k: int = 10) -> List[Tuple[int, float]]:
        """Return up to ``top_k`` (doc_id, score) pairs, best first.

        Documents that share no term with the query are left out. Ties are
        broken by document id so results are deterministic.
        """
        terms = set(self.tokenizer(query))
        candidates = [
            i for i, counts in enumerate(self.term_freqs) if any(t in counts for t in terms)
        ]
        scored = [(i, self.score(query, i)) for i in candidates]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:top_k]


def rank(documents: Sequence[str], query: str, top_k: int = 10, **kwargs) -> List[Tuple[int, float]]:
    """Convenience wrapper: build a BM25 index and run one query."""
    return BM25(documents, **kwargs).search(query, top_k=top_k)


if __name__ == "__main__":
    corpus = [
        "Retrieval-Augmented Generation (RAG) retrieves notes before the model answers.",
        "BM25 uses k1 between 1.2 and 2.0 and b = 0.75 for length normalisation.",
        "Reciprocal Rank Fusion merges BM25 and vector database results with k = 60.",
        "Niklas Luhmann's Zettelkasten held about 90,000 cards linked by hand.",
        "检索增强生成（RAG）先用 BM25 和向量数据库检索，再让模型回答。",
        "中文分词是中文全文检索和倒排索引的基础。",
    ]
    index = BM25(corpus)
    for q in ["BM25 length normalisation", "Zettelkasten cards", "向量数据库 检索", "中文分词"]:
        print(q)
        for doc_id, s in index.search(q, top_k=3):
            print(f"  {s:6.3f}  {corpus[doc_id]}")
