//go:build linux

package headless

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// pythonCheck lists the Debian packages missing for the Python fixture apps, per kind ("all" for the
// interpreter, "gi" for PyGObject, which the GTK and WebKit fixtures need).
var pythonCheck = sync.OnceValue(func() map[string][]string {
	const script = `
import importlib.util
for kind, module, pkg in (("qt5", "PyQt5.QtWidgets", "python3-pyqt5"), ("qt6", "PyQt6.QtWidgets", "python3-pyqt6")):
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:
        found = False
    if not found:
        print(kind, pkg)
try:
    import gi
except ImportError:
    print("gi python3-gi")
else:
    r = gi.Repository.get_default()
    for kind, v in (("gtk3", "3.0"), ("gtk4", "4.0"), ("webkit", "3.0")):
        if v not in r.enumerate_versions("Gtk"):
            print(kind, "gir1.2-gtk-" + v)
    if "4.1" not in r.enumerate_versions("WebKit2"):
        print("webkit", "gir1.2-webkit2-4.1")
`
	out, err := exec.Command(Python, "-c", script).Output()
	if err != nil { // no interpreter: all that the Python fixtures need
		return map[string][]string{"all": {"python3"}, "gi": {"python3-gi"}, KindGTK3: {"gir1.2-gtk-3.0"},
			KindGTK4: {"gir1.2-gtk-4.0"}, KindWebKit: {"gir1.2-gtk-3.0", "gir1.2-webkit2-4.1"},
			KindQt5: {"python3-pyqt5"}, KindQt6: {"python3-pyqt6"}}
	}
	m := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			m[f[0]] = append(m[f[0]], f[1])
		}
	}
	return m
})

// FixtureAvailable reports whether the fixture app of kind (FixtureKinds) can run here: nil, or an error
// naming the Debian packages to install.
func FixtureAvailable(kind string) error {
	return missingPackages(fmt.Sprintf("the %s fixture needs", kind), fixturePackages(kind))
}

// fixturePackages lists the Debian packages missing for the fixture app of kind.
func fixturePackages(kind string) []string {
	if kind == KindSwing {
		return javaPackages()
	}
	m := pythonCheck()
	missing := append([]string(nil), m["all"]...)
	if kind != KindQt5 && kind != KindQt6 {
		missing = append(missing, m["gi"]...)
	}
	return append(missing, m[kind]...)
}

// Available reports whether headless sessions and the GTK fixture apps can run here: nil, or an error naming
// the Debian packages to install. FixtureAvailable tells of the other fixtures.
func Available() error {
	missing := append(sessionPackages(), fixturePackages(KindGTK3)...)
	for _, p := range fixturePackages(KindGTK4) {
		if !slices.Contains(missing, p) {
			missing = append(missing, p)
		}
	}
	return missingPackages("headless sessions and the fixture apps need", missing)
}

// programPackages names the Debian package of programs a test or a user may start in a session
// (StartProgram), for the error when one is missing.
var programPackages = map[string]string{
	"python3": "python3", "java": "openjdk-17-jre", "chromium": "chromium",
	"gtk3-widget-factory": "gtk-3-examples", "gtk3-demo": "gtk-3-examples",
	"gtk4-widget-factory": "gtk-4-examples", "gtk4-demo": "gtk-4-examples",
	"firefox-esr": "firefox-esr", "firefox": "firefox-esr",
	"soffice": "libreoffice", "libreoffice": "libreoffice",
	"gnome-calculator": "gnome-calculator", "gedit": "gedit", "xterm": "xterm", "zenity": "zenity",
}

// missingProgram is the error for a program StartProgram cannot find.
func missingProgram(program string) error {
	if pkg, ok := programPackages[filepath.Base(program)]; ok {
		return missingPackages(fmt.Sprintf("%s needs", filepath.Base(program)), []string{pkg})
	}
	return fmt.Errorf("headless: program %s not found (PATH is searched for a bare name): install the Debian "+
		"package that provides it", program)
}
