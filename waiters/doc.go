// Package waiters owns waits: the engine that subscribes to events first, evaluates a condition
// (the language is waiters/condition) on each relevant one and on a slow timer, and confirms a
// match with a snapshot that holds it; and the actionability wait of an action's locator. Every
// condition is evaluated within a budget (its regexes bounded when parsed, its evaluation
// metered), so one wait never delays another's.
package waiters
