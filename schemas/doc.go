// Package schemas holds the JSON Schema (draft 2020-12) of every request, reply and event of
// axbus, embedded in the binary, and validates documents against them. The schemas are the
// public API: any NATS client can build requests from them.
//
// A schema is named after its file in json/ without the extension: "inspect.request",
// "inspect.reply", "event", "error". Shared definitions live in "defs".
package schemas
