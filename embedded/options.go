package embedded

import (
	"log/slog"
	"time"
)

// DefaultListen is the client listen address. A stock nats-server uses 4222;
// we stay off it so that both can run side by side.
const DefaultListen = "127.0.0.1:4228"

// DefaultMaxPayload is large enough that an oversized request reaches our
// handlers and gets a clear error, instead of the client failing on its own.
const DefaultMaxPayload int32 = 8 << 20

// StreamLimits bound what a stream keeps: past either, the oldest messages go (DiscardOld).
type StreamLimits struct {
	MaxBytes int64
	MaxAge   time.Duration
}

// EventStreamLimits are the event stream's: a short-term history for tail tools, not an archive.
var EventStreamLimits = StreamLimits{MaxBytes: 512 << 20, MaxAge: 24 * time.Hour}

// AuditStreamLimits are the audit trail's: a stream of its own, which no volume of events
// evicts. A record is under 1 KiB (it carries no value) and each identity keeps its newest
// api.AuditRecordsPerIdentity (10,000: under 10 MiB), so 512 MiB holds 50 identities' whole
// before the oldest of all go.
var AuditStreamLimits = StreamLimits{MaxBytes: 512 << 20, MaxAge: 30 * 24 * time.Hour}

// kvLimitMarkerTTL enables per-key TTLs on KV buckets (used for leases).
const kvLimitMarkerTTL = time.Second

// Option configures Start.
type Option func(*config)

type config struct {
	stateDir   string
	listen     string
	logger     *slog.Logger
	streams    []streamSpec
	buckets    []string
	maxPayload int32

	// tlsCert and tlsKey are PEM files; when set the client listener
	// requires TLS.
	tlsCert, tlsKey string
	// insecureRemote accepts a plaintext client listener that other
	// machines can reach.
	insecureRemote bool
	// access, when set, gives every client user an account of its own.
	access *accessConfig
	// leaf, when set, is the hub the server joins as a leaf node.
	leaf *Leaf
	// domain is the JetStream domain (WithJetStreamDomain).
	domain string
	// webSocket is the WebSocket listener's address, webOrigins the pages it takes (WithWebSocket).
	webSocket  string
	webOrigins []string
}

type streamSpec struct {
	name     string
	subjects []string
	limits   StreamLimits
}

func defaultConfig() config {
	return config{
		listen:     DefaultListen,
		logger:     slog.New(slog.DiscardHandler),
		maxPayload: DefaultMaxPayload,
	}
}

// WithStateDir sets the state directory (default DefaultStateDir()).
func WithStateDir(dir string) Option {
	return func(c *config) { c.stateDir = dir }
}

// WithListen sets the client listen address host:port (default DefaultListen).
// Port 0 picks a free port; ClientURL reports the real one.
func WithListen(hostport string) Option {
	return func(c *config) { c.listen = hostport }
}

// WithLogger sets where the server's log goes (default: discarded).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithEventStream asks for a JetStream stream, created or updated at start,
// capturing subjects: file storage written asynchronously, EventStreamLimits,
// DiscardOld. May be given more than once.
func WithEventStream(name string, subjects ...string) Option {
	return WithStream(name, EventStreamLimits, subjects...)
}

// WithStream is WithEventStream with limits of its own (AuditStreamLimits, or a test's);
// streams are made in the order given, so one may take subjects over from an earlier one.
func WithStream(name string, limits StreamLimits, subjects ...string) Option {
	return func(c *config) {
		c.streams = append(c.streams, streamSpec{name: name, subjects: append([]string(nil), subjects...), limits: limits})
	}
}

// WithKeyValue asks for a KV bucket, created or updated at start, with
// LimitMarkerTTL 1s so that keys can carry their own TTL. May be given more
// than once.
func WithKeyValue(bucket string) Option {
	return func(c *config) { c.buckets = append(c.buckets, bucket) }
}

// WithMaxPayload sets the largest message the server accepts
// (default DefaultMaxPayload).
func WithMaxPayload(n int32) Option {
	return func(c *config) { c.maxPayload = n }
}

// WithTLS makes the client listener require TLS with the PEM certificate
// and private key in certFile and keyFile. Clients that speak plaintext are
// refused; the daemon's own in-process connection is not affected.
// daemon.json records the certificate so that Connect trusts it.
func WithTLS(certFile, keyFile string) Option {
	return func(c *config) { c.tlsCert, c.tlsKey = certFile, keyFile }
}

// WithInsecureRemote lets Start listen in plaintext on an address other
// machines can reach. Without it (or WithTLS) Start refuses every listen
// address that is not loopback, with an *ExposedListenError.
func WithInsecureRemote(ok bool) Option {
	return func(c *config) { c.insecureRemote = ok }
}

// WithJetStreamDomain names the server's JetStream domain (a daemon's is its host id): clients
// reach its streams as $JS.<domain>.API..., here and through a hub, where every host's
// JetStream is in reach and only the domain tells them apart.
func WithJetStreamDomain(domain string) Option { return func(c *config) { c.domain = domain } }

// WithAccess gives each client user an account of its own whose role's Grant says what it
// reaches of the daemon's account (see DaemonAccount). The client credentials of the state dir
// (the desktop owner's) are the user OwnerName with role ownerRole; the users added with
// AddUser are kept in the state dir's users.json. Without WithAccess every client shares the
// daemon's account with every right.
func WithAccess(roles map[string]Grant, ownerRole string) Option {
	return func(c *config) { c.access = &accessConfig{roles: roles, ownerRole: ownerRole} }
}

type accessConfig struct {
	roles     map[string]Grant
	ownerRole string
	private   map[string]string // subject -> its owner (Server.SetPrivate)
}
