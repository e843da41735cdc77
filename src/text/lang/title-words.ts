/**
 * Words a title uses for what kind of text it is, not what the text is about: "Specialization
 * Review", "Stream trait design meeting", "分支简介", "Git 基础". Per language, as data; the subject
 * of a work is looked for among the title's other words (compile/offline/subject.ts).
 */
export const TITLE_GENRE_EN = new Set(
  `design meeting meetings minutes review reviews update updates note notes introduction intro introducing overview guide guides tutorial tutorials primer preview part chapter basics basic getting started start proposal discussion recap summary announcing announcement shipping release released week weekly issue issues faq cheatsheet cheat sheet reference handbook lesson lessons lecture session sessions talk talks post thoughts remarks need do does we our my you your how why what when where which who is are a an the of and or in on for with to from about vs versus using use new beyond into onto toward towards across behind inside outside around among within through again`.split(
    /\s+/,
  ),
);

export const TITLE_GENRE_ZH = new Set(
  `翻译 译文 原文 转载 你的 我的 第一个 第一篇 如同 简介 介绍 入门 笔记 指南 教程 概述 概览 总结 会议 纪要 初探 浅谈 详解 基础 起步 章 第 篇 简述 小结 问答 速查 手册 学习 心得 周刊 每周 本周 更新 发布 预览 讨论 提案 常用 什么 如何 为什么 怎么 怎样 关于 的 与 和 及 之`.split(
    /\s+/,
  ),
);
