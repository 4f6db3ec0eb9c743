package daemon

import (
	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// listenStatus is what status says about the client listener described by info (daemon.json).
func listenStatus(info embedded.Info) api.ListenStatus {
	return api.ListenStatus{
		URL:            info.URL,
		Address:        info.Listen,
		Loopback:       info.Loopback,
		TLS:            info.TLS(),
		InsecureRemote: info.InsecureRemote,
	}
}
