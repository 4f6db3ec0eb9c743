package daemon

import (
	"context"
	"time"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/atspi"
)

func init() {
	backends["atspi"] = openATSPI
	platformBackend = "atspi"
}

// openATSPI connects to the AT-SPI bus of this session, or of the desktop cfg names.
func openATSPI(cfg Config) (observer.Backend, error) {
	opts := []atspi.Option{atspi.WithLogger(cfg.Log.With("part", "atspi"))}
	if cfg.SessionBus != "" {
		opts = append(opts, atspi.WithSessionBus(cfg.SessionBus))
	}
	if cfg.A11yBus != "" {
		opts = append(opts, atspi.WithA11yBus(cfg.A11yBus))
	}
	if cfg.Display != "" {
		opts = append(opts, atspi.WithDisplay(cfg.Display))
	}
	if cfg.XAuthority != "" {
		opts = append(opts, atspi.WithXAuthority(cfg.XAuthority))
	}
	if cfg.LaunchEnv != nil {
		opts = append(opts, atspi.WithLaunchEnv(cfg.LaunchEnv))
	}
	if cfg.LoseEvents > 0 {
		opts = append(opts, atspi.WithEventLoss(cfg.LoseEvents))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := atspi.Open(ctx, opts...)
	if err != nil {
		return nil, err
	}
	return b, nil
}
