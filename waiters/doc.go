// Package waiters owns waits: the condition language (canonical JSON and the CLI's compact
// form), matchers, and the engine that subscribes to events first, evaluates on each relevant
// one and on a slow timer, and confirms a match with a snapshot that holds it. Every condition
// is evaluated within a budget (its regexes bounded when parsed, its evaluation metered), so
// one wait never delays another's.
package waiters
