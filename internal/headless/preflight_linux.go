//go:build linux

package headless

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// sessionTools checks the programs Start needs.
func sessionTools() error {
	return missingPackages("a headless session needs", sessionPackages())
}

// sessionPackages lists the Debian packages missing for a session.
func sessionPackages() []string {
	var missing []string
	if _, err := exec.LookPath("Xvfb"); err != nil {
		missing = append(missing, "xvfb")
	}
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		missing = append(missing, "dbus")
	}
	if !serviceInstalled("services", a11yBusName) || !serviceInstalled("accessibility-services", registryName) {
		missing = append(missing, "at-spi2-core")
	}
	return missing
}

// serviceInstalled reports whether a D-Bus service file for name exists in dbus-1/<kind> of the data dirs and
// its Exec program exists.
func serviceInstalled(kind, name string) bool {
	dirs := os.Getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	for _, d := range filepath.SplitList(dirs) {
		b, err := os.ReadFile(filepath.Join(d, "dbus-1", kind, name+".service"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if exe, ok := strings.CutPrefix(strings.TrimSpace(line), "Exec="); ok {
				if f := strings.Fields(exe); len(f) > 0 {
					if _, err := os.Stat(f[0]); err == nil {
						return true
					}
				}
			}
		}
	}
	return false
}

func missingPackages(what string, pkgs []string) error {
	if len(pkgs) == 0 {
		return nil
	}
	return fmt.Errorf("headless: %s the Debian packages %s: apt-get install -y --no-install-recommends %s",
		what, strings.Join(pkgs, ", "), strings.Join(pkgs, " "))
}

// pythonCheck lists the Debian packages missing for the fixture apps, per toolkit ("" for the interpreter).
var pythonCheck = sync.OnceValue(func() map[string][]string {
	const script = `
import sys
try:
    import gi
except ImportError:
    print("all python3-gi"); sys.exit(0)
r = gi.Repository.get_default()
for kind, v in (("gtk3", "3.0"), ("gtk4", "4.0")):
    if v not in r.enumerate_versions("Gtk"):
        print(kind, "gir1.2-gtk-" + v)
`
	out, err := exec.Command(Python, "-c", script).Output()
	if err != nil {
		return map[string][]string{"all": {"python3", "python3-gi"}}
	}
	m := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			m[f[0]] = append(m[f[0]], f[1])
		}
	}
	return m
})

// fixtureToolkit checks that the fixture app of kind can run.
func fixtureToolkit(kind string) error {
	m := pythonCheck()
	return missingPackages(fmt.Sprintf("the %s fixture (%s) needs", kind, Python), append(m["all"], m[kind]...))
}

// Available reports whether headless sessions and both fixture apps can run here: nil, or an error naming the
// Debian packages to install.
func Available() error {
	m := pythonCheck()
	missing := append(sessionPackages(), m["all"]...)
	missing = append(missing, m[KindGTK3]...)
	missing = append(missing, m[KindGTK4]...)
	return missingPackages("headless sessions and the fixture apps need", missing)
}
