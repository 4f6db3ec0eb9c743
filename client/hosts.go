package client

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
)

// Host is one daemon that answered service discovery: its host id, backend and version.
type Host struct {
	Host    string `json:"host"`
	Backend string `json:"backend"`
	Version string `json:"version"`
	ID      string `json:"id"`
	// Subjects is where its API is (<prefix>.<host>.api).
	Subjects string `json:"api"`
}

// Hosts asks every daemon the connection reaches (a hub reaches its fleet's) to say who it is,
// as `nats micro info` does, and lists those that answered within wait, by host id.
func Hosts(ctx context.Context, nc *nats.Conn, wait time.Duration) ([]Host, error) {
	inbox := nc.NewRespInbox()
	replies := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe(inbox, replies)
	if err != nil {
		return nil, natsTrouble("discovery", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := nc.PublishRequest("$SRV.INFO."+api.ServiceName, inbox, nil); err != nil {
		return nil, natsTrouble("discovery", err)
	}
	timer := time.NewTimer(wait) // discovery cannot know how many will answer: it listens this long
	defer timer.Stop()
	var out []Host
	for {
		select {
		case msg := <-replies:
			var info struct {
				ID       string            `json:"id"`
				Version  string            `json:"version"`
				Metadata map[string]string `json:"metadata"`
			}
			if json.Unmarshal(msg.Data, &info) == nil && info.Metadata["host"] != "" {
				out = append(out, Host{Host: info.Metadata["host"], Backend: info.Metadata["backend"], Version: info.Version,
					ID: info.ID, Subjects: info.Metadata["api"]})
			}
		case <-timer.C:
			slices.SortFunc(out, func(a, b Host) int { return strings.Compare(a.Host, b.Host) })
			return out, nil
		case <-ctx.Done():
			return nil, model.AsError(ctx.Err())
		}
	}
}
