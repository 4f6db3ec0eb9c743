package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

const (
	serverName = "axbus"
	daemonName = "axbus-daemon"

	readyTimeout = 5 * time.Second
	setupTimeout = 10 * time.Second

	// One frozen subscriber must not stall publishing (nats-server #2679,
	// #6413): it gets cut off after writeDeadline or maxPending bytes, and
	// NoFastProducerStall makes it lose messages meanwhile instead of
	// making the publisher wait.
	writeDeadline = 2 * time.Second
	maxPending    = 8 << 20
)

// Server is a running embedded NATS server with JetStream, owning its state
// directory until Shutdown.
type Server struct {
	ns   *server.Server
	nc   *nats.Conn
	js   jetstream.JetStream
	lock *dirLock
	info Info
	log  *slog.Logger
	// counts serves Interest.
	counts interestCounts

	mu   sync.Mutex
	done bool

	// What a reload of the accounts needs again (AddUser, RemoveUser).
	cfg       config
	host      string
	port      int
	stls      *serverTLS
	daemonPub string
	access    *accessConfig
	owner     User
	users     []User
	hub       *User // the leaf's account, when the server joins a hub
}

// Start starts the server and returns when it is ready for connections:
// it locks the state directory, loads or creates the client nkey, starts
// NATS with JetStream, connects the daemon's own in-process connection,
// creates the requested streams and buckets, and writes daemon.json.
// On error nothing is left running or locked.
//
// A listen address other machines can reach (not loopback: 0.0.0.0, ::, an
// empty host, a LAN address) is refused with an *ExposedListenError unless
// the listener requires TLS (WithTLS) or the caller accepts plaintext
// (WithInsecureRemote); that refusal comes before the state dir is touched.
func Start(opts ...Option) (_ *Server, err error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	// Refusals that need nothing of the state dir come before it is touched.
	host, port, loopback, stls, err := cfg.listener()
	if err != nil {
		return nil, err
	}
	dir, lk, err := lockStateDir(cfg)
	if err != nil {
		return nil, err
	}

	// undo runs in reverse order when Start fails.
	var undo []func()
	defer func() {
		if err != nil {
			for i := len(undo) - 1; i >= 0; i-- {
				undo[i]()
			}
		}
	}()
	undo = append(undo, func() { _ = lk.release() })

	// The lock was free, so any daemon.json is from a daemon that died;
	// remove it so that nobody connects by it while we start.
	if rerr := os.Remove(infoPath(dir)); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale %s: %w", infoFileName, rerr)
	}

	credsPath, clientPub, err := loadOrCreateCreds(dir)
	if err != nil {
		return nil, err
	}

	// The daemon's own user exists only in memory and only in-process.
	daemonKey, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("generate daemon nkey: %w", err)
	}
	undo = append(undo, daemonKey.Wipe)
	daemonPub, _ := daemonKey.PublicKey() // a key just made has one

	if port != 0 && precheckPort {
		if err := checkPortFree(cfg.listen); err != nil {
			return nil, err
		}
	}

	owner := User{Name: OwnerName, Nkey: clientPub}
	var users []User
	if cfg.access != nil {
		owner.Role = cfg.access.ownerRole
		if users, err = loadUsers(dir); err != nil {
			return nil, err
		}
	}
	sopts, err := serverOptions(cfg, host, port, dir, owner, users, daemonPub, stls)
	if err != nil {
		return nil, err
	}
	ns, err := runNATS(cfg, sopts)
	if err != nil {
		return nil, err
	}
	undo = append(undo, func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	nc, err := nats.Connect("", append(ownConnection(cfg.logger),
		nats.InProcessServer(ns),
		nats.Nkey(daemonPub, daemonKey.Sign),
		nats.Name(daemonName),
	)...)
	if err != nil {
		return nil, fmt.Errorf("in-process connection: %w", err)
	}
	undo = append(undo, nc.Close)

	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if err := setupJetStream(ctx, js, cfg); err != nil {
		return nil, err
	}

	s := &Server{
		ns:   ns,
		nc:   nc,
		js:   js,
		lock: lk,
		log:  cfg.logger,
		cfg:  cfg, host: host, port: port, stls: stls, daemonPub: daemonPub,
		access: cfg.access, owner: owner, users: users,
	}
	if cfg.leaf != nil {
		_, hub, _ := leafRemote(cfg.leaf) // it worked for serverOptions a moment ago
		s.hub = &hub
	}
	if err := s.announce(dir, credsPath, loopback); err != nil {
		return nil, err
	}
	return s, nil
}

// listener checks the client listener the options ask for: its host and port, whether only
// this machine reaches it (an exposed plaintext one is refused unless allowed), and its TLS.
func (cfg config) listener() (host string, port int, loopback bool, stls *serverTLS, err error) {
	if host, port, err = cfg.validate(); err != nil {
		return "", 0, false, nil, err
	}
	if loopback, err = cfg.checkExposure(host); err != nil {
		return "", 0, false, nil, err
	}
	if cfg.tlsCert != "" || cfg.tlsKey != "" {
		stls, err = loadServerTLS(cfg.tlsCert, cfg.tlsKey)
	}
	return host, port, loopback, stls, err
}

// announce writes daemon.json, which is how clients find the server, once it is ready.
func (s *Server) announce(dir, credsPath string, loopback bool) error {
	s.info = Info{
		URL:       clientURL(s.ns, s.host, s.stls != nil),
		PID:       os.Getpid(),
		CredsFile: credsPath,
		Started:   time.Now().UTC(),
		StateDir:  dir,
		Listen:    s.ns.Addr().String(),
		Loopback:  loopback,
		// Exposed and plaintext: only reachable through WithInsecureRemote.
		InsecureRemote: !loopback && s.stls == nil,
	}
	if s.stls != nil {
		s.info.TLSCertFile, s.info.TLSCertSHA256 = s.stls.certFile, s.stls.pin
	}
	if err := writeInfo(dir, s.info); err != nil {
		return err
	}
	s.log.Info("nats server ready", "url", s.info.URL, "listen", s.info.Listen, "tls", s.info.TLS(), "state_dir", dir)
	if s.info.InsecureRemote {
		s.log.Warn("the client port is reachable from the network without TLS", "listen", s.info.Listen)
	}
	return nil
}

// lockStateDir makes the state dir and takes its lock: AlreadyRunningError when another daemon
// holds it.
func lockStateDir(cfg config) (string, *dirLock, error) {
	dir, err := resolveStateDir(cfg.stateDir)
	if err != nil {
		return "", nil, err
	}
	if err := ensureStateDir(dir, cfg.logger); err != nil {
		return "", nil, err
	}
	lk, err := acquireLock(dir)
	if errors.Is(err, errLocked) {
		// Read-only from here: the other daemon owns everything in dir.
		e := &AlreadyRunningError{StateDir: dir}
		if info, rerr := readInfo(dir); rerr == nil {
			e.URL, e.PID = info.URL, info.PID
		}
		return "", nil, e
	}
	return dir, lk, err
}

// runNATS starts the NATS server of sopts and returns it once it takes connections; a server
// that cannot start (a busy port, its JetStream store) is shut down and its error said.
func runNATS(cfg config, sopts *server.Options) (*server.Server, error) {
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("configure nats server: %w", err)
	}
	lg := newNATSLogger(cfg.logger)
	ns.SetLoggerV2(lg, lg.debugEnabled(), false, false)
	// Start is synchronous up to the listener, so a fatal start error
	// (busy port, JetStream store) is known when it returns.
	ns.Start()
	failed := func(err error) (*server.Server, error) {
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, err
	}
	if msg := lg.fatalMessage(); msg != "" {
		return failed(startError(msg, cfg.listen))
	}
	if !ns.ReadyForConnections(readyTimeout) {
		if msg := lg.fatalMessage(); msg != "" {
			return failed(startError(msg, cfg.listen))
		}
		return failed(fmt.Errorf("nats server not ready after %s", readyTimeout))
	}
	return ns, nil
}

func serverOptions(cfg config, host string, port int, dir string, owner User, users []User, daemonPub string, stls *serverTLS) (*server.Options, error) {
	if port == 0 {
		port = server.RANDOM_PORT // 0 means the default port 4222 to nats-server
	}
	opts := &server.Options{}
	var remote *server.RemoteLeafOpts
	if cfg.leaf != nil {
		if cfg.access == nil {
			return nil, errors.New("a leaf node needs accounts (WithAccess): the hub's requests have a role")
		}
		var hub User
		var err error
		if remote, hub, err = leafRemote(cfg.leaf); err != nil {
			return nil, err
		}
		users = append(slices.Clone(users), hub)
	}
	if cfg.access != nil {
		text, err := accountsConfig(daemonPub, cfg.access.roles, append([]User{owner}, users...), cfg.domain, cfg.access.private)
		if err == nil {
			err = opts.ProcessConfigString(text)
		}
		if err != nil {
			return nil, fmt.Errorf("accounts: %w", err)
		}
	} else {
		opts.Nkeys = []*server.NkeyUser{
			// Clients: the seed file in the state dir, over TCP.
			{Nkey: owner.Nkey, AllowedConnectionTypes: connTypes(jwt.ConnectionTypeStandard)},
			// The daemon itself: in-process only, so the key is useless elsewhere.
			{Nkey: daemonPub, AllowedConnectionTypes: connTypes(jwt.ConnectionTypeInProcess)},
		}
	}
	*opts = server.Options{
		Accounts: opts.Accounts,
		Nkeys:    opts.Nkeys,

		ServerName: serverName,
		Host:       host,
		Port:       port,
		// The host program owns the signals.
		NoSigs: true,

		MaxPayload:          cfg.maxPayload,
		MaxPending:          max(maxPending, int64(cfg.maxPayload)),
		WriteDeadline:       writeDeadline,
		NoFastProducerStall: true,

		JetStream: true,
		// Never empty: that falls back to a tmp dir shared by every server.
		// nats-server adds its own "jetstream" level below this one.
		StoreDir:               filepath.Join(dir, jetStreamDir),
		DisableJetStreamBanner: true,
	}
	if cfg.domain != "" {
		opts.JetStreamDomain = cfg.domain
		opts.ServerName = serverName + "-" + cfg.domain // a hub tells its leaves apart by name
	}
	if remote != nil {
		opts.LeafNode.Remotes = []*server.RemoteLeafOpts{remote}
	}
	if cfg.webSocket != "" {
		ws, err := webSocketOptions(cfg, stls)
		if err != nil {
			return nil, err
		}
		opts.Websocket = ws
	}
	if stls != nil {
		// Every TCP client must do TLS (AllowNonTLS stays false); only the
		// in-process connection may go without, which nats-server allows.
		opts.TLSConfig = stls.config
	}
	return opts, nil
}

func connTypes(types ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(types))
	for _, t := range types {
		m[t] = struct{}{}
	}
	return m
}

func setupJetStream(ctx context.Context, js jetstream.JetStream, cfg config) error {
	for _, st := range cfg.streams {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name:      st.name,
			Subjects:  st.subjects,
			Storage:   jetstream.FileStorage,
			Retention: jetstream.LimitsPolicy,
			MaxAge:    st.limits.MaxAge,
			MaxBytes:  st.limits.MaxBytes,
			Discard:   jetstream.DiscardOld,
			// The stream is a short history beside the live subjects, which deliver first:
			// its writes are flushed by its own loop, not one at a time as they come.
			PersistMode: jetstream.AsyncPersistMode,
			// A page of history by time in one request (the console's Live view asks for one).
			AllowDirect: true,
		})
		if err != nil {
			return fmt.Errorf("stream %s: %w", st.name, err)
		}
	}
	for _, b := range cfg.buckets {
		_, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:         b,
			Storage:        jetstream.FileStorage,
			LimitMarkerTTL: kvLimitMarkerTTL,
		})
		if err != nil {
			return fmt.Errorf("kv bucket %s: %w", b, err)
		}
	}
	return nil
}

// clientURL is the URL a client on this machine uses: the bound listener's
// address, so port 0 shows the real port; when the listener is bound to
// every interface, loopback (::1 when the listen host was an IPv6 literal,
// 127.0.0.1 otherwise: Go binds 0.0.0.0 as a dual-stack [::]). The scheme is
// tls:// when the listener requires TLS.
func clientURL(ns *server.Server, listenHost string, requireTLS bool) string {
	scheme := "nats://"
	if requireTLS {
		scheme = "tls://"
	}
	addr, ok := ns.Addr().(*net.TCPAddr)
	if !ok {
		return ns.ClientURL()
	}
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
		if ip := net.ParseIP(listenHost); ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return scheme + net.JoinHostPort(host, fmt.Sprint(addr.Port))
}

// ClientURL returns the URL (nats:// or tls://) a client on this machine
// connects to.
func (s *Server) ClientURL() string { return s.info.URL }

// CredsFile returns the path of the client nkey seed file (mode 0600).
func (s *Server) CredsFile() string { return s.info.CredsFile }

// StateDir returns the absolute state directory.
func (s *Server) StateDir() string { return s.info.StateDir }

// Info returns what daemon.json says about this server.
func (s *Server) Info() Info { return s.info }

// Conn returns the daemon's own in-process connection. Do not close it:
// Shutdown drains it.
func (s *Server) Conn() *nats.Conn { return s.nc }

// JetStream returns a JetStream context on Conn().
func (s *Server) JetStream() jetstream.JetStream { return s.js }

// NATS returns the underlying server.
func (s *Server) NATS() *server.Server { return s.ns }

// Shutdown stops the server; the caller stops its own services first. It
// drains Conn (bounded by ctx), shuts the server down and waits for it,
// removes daemon.json and releases the lock. Conn goes first: a server shut
// down under it leaves it reconnecting for minutes while Publish returns nil.
// Calling Shutdown again does nothing.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil
	}
	s.done = true

	var errs []error
	if err := drain(ctx, s.nc); err != nil {
		errs = append(errs, err)
	}
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	if err := os.Remove(infoPath(s.info.StateDir)); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("remove %s: %w", infoFileName, err))
	}
	if err := s.lock.release(); err != nil {
		errs = append(errs, fmt.Errorf("release lock: %w", err))
	}
	s.log.Info("nats server stopped")
	return errors.Join(errs...)
}

// drain drains nc and waits until it is closed, closing it outright when
// ctx ends first.
func drain(ctx context.Context, nc *nats.Conn) error {
	if nc.IsClosed() {
		return nil
	}
	ch := nc.StatusChanged(nats.CLOSED)
	defer nc.RemoveStatusListener(ch)
	if err := nc.Drain(); err != nil {
		nc.Close()
		return fmt.Errorf("drain in-process connection: %w", err)
	}
	// Also poll: a status event is dropped if the channel is full.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !nc.IsClosed() {
		select {
		case <-ch:
		case <-tick.C:
		case <-ctx.Done():
			nc.Close()
			return fmt.Errorf("drain in-process connection: %w", ctx.Err())
		}
	}
	return nil
}
