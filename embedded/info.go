package embedded

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Info is the content of daemon.json: how clients reach a running daemon.
type Info struct {
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	CredsFile string    `json:"creds_file"`
	Started   time.Time `json:"started"`
	StateDir  string    `json:"state_dir"`
}

func infoPath(dir string) string { return filepath.Join(dir, infoFileName) }

func writeInfo(dir string, info Info) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(infoPath(dir), append(data, '\n'), privateFileMod)
}

func readInfo(dir string) (Info, error) {
	var info Info
	data, err := os.ReadFile(infoPath(dir))
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("parse %s: %w", infoPath(dir), err)
	}
	return info, nil
}
