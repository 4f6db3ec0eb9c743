package daemon

import (
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
)

// listenStatus is what status says about the client listener described by info (daemon.json).
func listenStatus(info embedded.Info) bus.ListenStatus {
	return bus.ListenStatus{
		URL:            info.URL,
		Address:        info.Listen,
		Loopback:       info.Loopback,
		TLS:            info.TLS(),
		InsecureRemote: info.InsecureRemote,
	}
}
