// The one entry of the bundle nats.js: what the console takes from the official JavaScript NATS
// client. `make console-js` bundles it (esbuild, pinned versions in the Makefile); the bundle is
// committed so that `go build` embeds it with no npm, and `make test` checks it is the bundle of
// these pins.
export { wsconnect, nkeyAuthenticator, headers } from "@nats-io/nats-core";
