// Package embedded owns the NATS server that an axbus daemon embeds: its
// options and authentication, the per-session state directory and the lock
// that makes one daemon its only user, JetStream (store, streams and KV
// buckets the caller asks for), and the server's lifecycle from Start to
// Shutdown. It also gives clients the way to find and reach a running daemon
// (Discover, Connect) through the daemon.json file in the state directory.
//
// Clients listen on loopback by default. A listener other machines can reach
// needs TLS (WithTLS) or an explicit WithInsecureRemote.
//
// The package knows nothing about accessibility or axbus subjects: callers
// pass stream subjects and bucket names in.
//
// State directory layout:
//
//	lock         flock(2)ed exclusively by the running daemon; never removed
//	client.nk    user nkey seed that clients authenticate with (0600)
//	creds/       seeds axbus creds add made (0700; each 0600); written by the CLI, not the daemon
//	daemon.json  how to reach the running daemon (URL, bound address, the TLS certificate's
//	             pin when TLS is required); written when ready, removed on clean shutdown
//	jetstream/   JetStream store directory
package embedded
