package daemon

import (
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/ax"
)

func init() {
	backends["ax"] = openAX
	platformBackend = "ax"
}

// openAX opens the macOS accessibility backend. It fails with PERMISSION_DENIED, naming the
// setting to change, while this process is not trusted for accessibility.
func openAX(cfg Config) (observer.Backend, error) {
	b, err := ax.Open(ax.WithLogger(cfg.Log.With("part", "ax")))
	if err != nil {
		return nil, err
	}
	return b, nil
}
