package ax

import (
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// DefaultMessagingTimeout bounds each AX call: an app that does not answer within it is
// reported busy (TRANSIENT) rather than stalling the caller.
const DefaultMessagingTimeout = 3 * time.Second

// Option configures Open.
type Option func(*config)

type config struct {
	log     *slog.Logger
	timeout time.Duration
	prompt  bool
}

// WithLogger sets the logger (default: discard). Values of elements are never logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithMessagingTimeout replaces DefaultMessagingTimeout.
func WithMessagingTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithTrustPrompt makes Open ask macOS to show its accessibility permission prompt when this
// process is not trusted yet (it still fails: the grant takes effect once the user gives it).
func WithTrustPrompt() Option { return func(c *config) { c.prompt = true } }

// Backend is the macOS accessibility backend. It is safe for concurrent use.
type Backend struct {
	cfg  config
	log  *slog.Logger
	refs *refTable
	apps appCache
	self int

	sinks *observer.Sinks // of every Watch; their source is one watchState

	mu        sync.Mutex
	closed    bool
	closeOnce sync.Once
}

// Open loads the frameworks and checks that this process is trusted for accessibility. A
// process that is not is refused with PERMISSION_DENIED, whose suggestion names the setting.
func Open(opts ...Option) (*Backend, error) {
	cfg := config{timeout: DefaultMessagingTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.log == nil {
		cfg.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.timeout <= 0 {
		cfg.timeout = DefaultMessagingTimeout
	}
	if err := load(); err != nil {
		return nil, err
	}
	if !Trusted(cfg.prompt) {
		exe, _ := os.Executable()
		return nil, AXAPIDisabled.Err("this process (%s) is not trusted for accessibility", exe)
	}
	// On the system-wide element the timeout is the default of every element; each element of
	// the table also gets it explicitly before its first call.
	axUIElementSetMessagingTimeout(systemWide(), float32(cfg.timeout.Seconds()))
	b := &Backend{cfg: cfg, log: cfg.log, refs: newRefTable(cfg.timeout), apps: newAppCache(), self: os.Getpid()}
	b.sinks = observer.NewSinks(b.startWatch)
	return b, nil
}

// Trusted reports whether this process may use the accessibility API; with prompt, macOS shows
// its permission prompt when it may not (asynchronously: the answer is still false). It is
// false where the frameworks cannot be loaded.
func Trusted(prompt bool) bool {
	if load() != nil {
		return false
	}
	opts := createDictionary(kAXTrustedCheckOptionPrompt, booleanRef(prompt))
	defer release(opts)
	return axIsProcessTrustedWithOptions(opts) != 0
}

// Platform is "ax", as --backend names this backend; the simulated desktop answers the same.
func (b *Backend) Platform() string { return "ax" }

// Chains returns the macOS action chains.
func (b *Backend) Chains() observer.Chains { return Chains() }

// Close stops watching and releases every element.
func (b *Backend) Close() error {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		b.sinks.Close() // stops the watch, if any
		b.refs.clear()
	})
	return nil
}

// checkOpen fails once the backend is closed.
func (b *Backend) checkOpen() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return model.Errorf(model.CodeUnavailable, "Open the backend again.", "the macOS backend is closed")
	}
	return nil
}

var system struct {
	once sync.Once
	ref  uintptr
}

// systemWide is the system-wide element, made once and kept.
func systemWide() uintptr {
	system.once.Do(func() { system.ref = axUIElementCreateSystemWide() })
	return system.ref
}
