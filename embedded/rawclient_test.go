package embedded

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"
)

// signedConnect reads the server's INFO line from r and returns it with the JSON of a CONNECT
// signed by the client nkey of credsFile, for a raw protocol client called name: the tests that
// must speak NATS below nats.go (a frozen reader, a plaintext client of a TLS port).
func signedConnect(t *testing.T, r *bufio.Reader, credsFile, name string) (infoLine string, connect []byte) {
	t.Helper()
	infoLine, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("INFO: %v", err)
	}
	var info struct {
		Nonce string `json:"nonce"`
	}
	if !strings.HasPrefix(infoLine, "INFO ") || json.Unmarshal([]byte(strings.TrimPrefix(infoLine, "INFO ")), &info) != nil || info.Nonce == "" {
		t.Fatalf("INFO line: %q", infoLine)
	}
	kp, err := nkeys.ParseDecoratedUserNKey(readFile(t, credsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer kp.Wipe()
	pub, _ := kp.PublicKey()
	sig, err := kp.Sign([]byte(info.Nonce))
	if err != nil {
		t.Fatal(err)
	}
	connect, _ = json.Marshal(map[string]any{
		"verbose": false, "pedantic": false, "protocol": 1, "name": name,
		"nkey": pub, "sig": base64.RawURLEncoding.EncodeToString(sig),
	})
	return infoLine, connect
}
