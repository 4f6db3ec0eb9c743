package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// procInfo is what /proc says of a process, as far as the doctor's toolkit diagnosis needs it. Fields it could
// not read are empty.
type procInfo struct {
	PID     int
	PPID    int
	Comm    string   // the process's name (/proc/PID/comm)
	Exe     string   // the executable (/proc/PID/exe's target)
	Cmdline []string // its arguments, the program first
	Environ []string // KEY=VALUE; nil when unreadable (another user's process)
	Libs    []string // the files it maps (/proc/PID/maps), each once
	// ElectronApp: an app.asar lies beside the executable (resources/app.asar), as Electron apps ship.
	ElectronApp bool
	// Readable says that /proc/PID could be read at all (false: gone, or another user's).
	Readable bool
}

// name is what the report calls the process: its executable's name (comm is cut at 15 bytes).
func (p procInfo) name() string {
	switch {
	case p.Exe != "":
		return filepath.Base(p.Exe)
	case len(p.args()) > 0:
		return filepath.Base(p.args()[0])
	case p.Comm != "":
		return p.Comm
	}
	return "?"
}

// env is the value of key in the process's environment ("" when unset).
func (p procInfo) env(key string) string {
	for _, kv := range p.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// maps says whether it maps a library whose file name starts with prefix (libgtk-3.so.0 by "libgtk-3.so").
func (p procInfo) maps(prefix string) (string, bool) {
	for _, l := range p.Libs {
		if strings.HasPrefix(filepath.Base(l), prefix) {
			return l, true
		}
	}
	return "", false
}

// args are its arguments, the program first. A process that rewrote its title (Chromium's browser does) shows
// them as one string, its words separated by spaces.
func (p procInfo) args() []string {
	if len(p.Cmdline) == 1 && strings.Contains(p.Cmdline[0], " ") {
		return strings.Fields(p.Cmdline[0])
	}
	return p.Cmdline
}

// hasArg says whether its command line holds arg, alone or as arg=VALUE.
func (p procInfo) hasArg(arg string) bool {
	return slices.ContainsFunc(p.args(), func(a string) bool { return a == arg || strings.HasPrefix(a, arg+"=") })
}

// parseMaps lists the files of /proc/PID/maps's text, each once, in their first order.
func parseMaps(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		// address perms offset dev inode path: the path is the sixth field and may hold spaces.
		f := strings.Fields(line)
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") {
			continue
		}
		path := strings.Join(f[5:], " ")
		path = strings.TrimSuffix(path, " (deleted)")
		if !seen[path] {
			seen[path] = true
			out = append(out, path)
		}
	}
	return out
}

// parseStatPPID reads the parent's PID from /proc/PID/stat's text: the fourth field, after the name in
// parentheses (which may hold spaces and parentheses itself).
func parseStatPPID(text string) int {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(text[i+1:])
	if len(f) < 2 {
		return 0
	}
	var ppid int
	if _, err := fmt.Sscanf(f[1], "%d", &ppid); err != nil {
		return 0
	}
	return ppid
}

// splitNUL splits /proc's NUL-separated lists (cmdline, environ).
func splitNUL(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// deskFacts is what the doctor found out about the desktop, which explains some apps' silence.
type deskFacts struct {
	SessionBus string // the desktop's D-Bus session bus ("" unknown)
	A11yBus    string // its accessibility bus, as org.a11y.Bus.GetAddress says ("" unknown)
	AtSpiBus   bool   // the root window's AT_SPI_BUS names A11yBus (Qt 5 finds the bus there)
	Enabled    bool   // org.a11y.Status IsEnabled is true (Qt and Chromium register only when it was at their start)
}

// diagnosis is why a process shows windows but publishes no accessibility tree, and what to do.
type diagnosis struct {
	Toolkit string // "Qt 5", "GTK 3", "Java", "Chromium", "Electron", ... ("unknown toolkit")
	Why     string
	Fix     string
}

// The toolkits the doctor knows, found in this order: Chromium and Java map GTK for their dialogs and Qt apps
// may map it for their theme, so GTK comes last.
const (
	tkChromium = "Chromium"
	tkElectron = "Electron"
	tkJava     = "Java"
	tkUnknown  = "unknown toolkit"
)

// toolkitOf names the toolkit of a process from its executable, command line and mapped libraries.
func toolkitOf(p procInfo) string {
	prog := strings.ToLower(p.Exe + " ")
	if args := p.args(); len(args) > 0 {
		prog += strings.ToLower(filepath.Base(args[0]))
	}
	switch {
	case strings.Contains(prog, "electron") || p.ElectronApp:
		return tkElectron
	case strings.Contains(prog, "chromium") || strings.Contains(prog, "chrome"):
		return tkChromium
	}
	if _, ok := p.maps("libjvm.so"); ok {
		return tkJava
	}
	if _, ok := p.maps("libawt_xawt.so"); ok {
		return tkJava
	}
	for _, tk := range []struct{ lib, name string }{
		{"libQt6Gui.so", "Qt 6"}, {"libQt5Gui.so", "Qt 5"}, {"libgtk-4.so", "GTK 4"}, {"libgtk-3.so", "GTK 3"},
	} {
		if _, ok := p.maps(tk.lib); ok {
			return tk.name
		}
	}
	return tkUnknown
}

// diagnose says why a process that shows windows has no app registered with AT-SPI, and the fix, from what
// /proc says of it and what the doctor found out about the desktop. What the process was told (its environment,
// its flags) comes before what its toolkit needs from the desktop.
func diagnose(p procInfo, desk deskFacts) diagnosis {
	if !p.Readable {
		return diagnosis{Toolkit: tkUnknown, Why: "its process cannot be read here (it ended, or it is another user's)",
			Fix: "Run axbus doctor as the user who started it, or check it has not just ended."}
	}
	tk := toolkitOf(p)
	d := diagnosis{Toolkit: tk}
	switch {
	case strings.HasPrefix(tk, "GTK") || tk == tkJava: // the ATK wrapper goes through GTK's bridge
		if v := p.env("NO_AT_BRIDGE"); v == "1" {
			d.Why = "it was started with NO_AT_BRIDGE=1, which keeps the accessibility bridge off"
			d.Fix = "Restart it without NO_AT_BRIDGE (unset it where it is set: the shell, a desktop entry, a systemd unit)."
			return d
		}
		if v := p.env("GTK_A11Y"); v == "none" {
			d.Why = "it was started with GTK_A11Y=none, which keeps GTK's accessibility off"
			d.Fix = "Restart it without GTK_A11Y (unset it where it is set: the shell, a desktop entry, a systemd unit)."
			return d
		}
	}
	if why, fix, ok := otherBus(p, desk); ok {
		d.Why, d.Fix = why, fix
		return d
	}
	switch {
	case tk == tkChromium || tk == tkElectron:
		d.Why, d.Fix = chromiumFix(p, tk, desk)
	case tk == tkJava:
		d.Why, d.Fix = javaFix(p)
	case strings.HasPrefix(tk, "Qt"):
		d.Why, d.Fix = qtFix(p, desk)
	case strings.HasPrefix(tk, "GTK"):
		d.Why = "GTK registers with the accessibility bus when it starts, and this one did not (was the bus up then?)"
		d.Fix = "Restart it in this desktop session, with NO_AT_BRIDGE and GTK_A11Y unset."
	default:
		d.Why = "its toolkit is none axbus knows (Qt, GTK, Java, Chromium, Electron): it may publish no accessibility tree at all, as Xt, Motif, SDL and most games do not"
		d.Fix = "Nothing turns its accessibility on from outside: axbus screenshot (with OCR) and physical input still reach it."
	}
	return d
}

// otherBus tells a process that talks to another session bus or accessibility bus than the desktop's: it
// registers where axbus does not look.
func otherBus(p procInfo, desk deskFacts) (why, fix string, ok bool) {
	const fixBus = "Start it inside this desktop's session (for a daemon's headless desktop: axbus desktop run PROGRAM), so that it reaches the accessibility bus axbus reads."
	if a := p.env("AT_SPI_BUS_ADDRESS"); a != "" && desk.A11yBus != "" && !sameBus(a, desk.A11yBus) {
		return fmt.Sprintf("its AT_SPI_BUS_ADDRESS=%s is not this desktop's accessibility bus (%s)", a, desk.A11yBus), fixBus, true
	}
	if a := p.env("DBUS_SESSION_BUS_ADDRESS"); a != "" && desk.SessionBus != "" && !sameBus(a, desk.SessionBus) {
		return fmt.Sprintf("it talks to another D-Bus session bus (%s), not this desktop's (%s)", a, desk.SessionBus), fixBus, true
	}
	return "", "", false
}

// sameBus compares two D-Bus addresses by their transport and socket, without the guid and other keys.
func sameBus(a, b string) bool {
	key := func(addr string) string {
		addr, _, _ = strings.Cut(addr, ";") // the first of several addresses
		method, rest, _ := strings.Cut(addr, ":")
		var parts []string
		for _, kv := range strings.Split(rest, ",") {
			if k, _, _ := strings.Cut(kv, "="); k == "path" || k == "abstract" || k == "host" || k == "port" {
				parts = append(parts, kv)
			}
		}
		slices.Sort(parts)
		return method + ":" + strings.Join(parts, ",")
	}
	return key(a) == key(b)
}

// chromiumFix: Chromium and Electron register with AT-SPI only when org.a11y.Status IsEnabled is on at their
// start, or when ACCESSIBILITY_ENABLED=1 is in their environment (Chromium 156 on Debian registers with it and
// IsEnabled off; --force-renderer-accessibility does not make it register, it only builds the pages' tree).
func chromiumFix(p procInfo, tk string, desk deskFacts) (why, fix string) {
	why = tk + " registers with the accessibility bus only when org.a11y.Status IsEnabled was on at its start"
	if desk.Enabled {
		why += " (it is on now: it was off then)"
	} else {
		why += " (it is off: see that check)"
	}
	if p.hasArg("--force-renderer-accessibility") {
		why += "; --force-renderer-accessibility does not make it register"
	}
	var off []string
	for _, f := range []string{"--disable-renderer-accessibility", "--disable-platform-accessibility-integration"} {
		if p.hasArg(f) {
			off = append(off, f)
		}
	}
	fix = "Restart it with ACCESSIBILITY_ENABLED=1 in its environment (it then registers whatever IsEnabled says)"
	if len(off) > 0 {
		fix += " and without " + strings.Join(off, " and ")
	}
	return why, fix + "; add --force-renderer-accessibility to have its pages' tree from the start."
}

// javaFix: Java's Swing and AWT publish to AT-SPI only through the ATK wrapper, an assistive technology the JVM
// loads when told to, and finds only on its class path: -Djavax.accessibility.assistive_technologies alone (or
// the JRE's accessibility.properties) ends in "Assistive Technology not found". JAVA_TOOL_OPTIONS reaches every
// JVM, launcher scripts and java -jar (which ignores -cp) too.
func javaFix(p procInfo) (why, fix string) {
	const (
		at  = "org.GNOME.Accessibility.AtkWrapper"
		jar = "/usr/share/java/java-atk-wrapper.jar" // where Debian's libatk-wrapper-java puts it
	)
	if _, loaded := p.maps("libatk-wrapper.so"); loaded {
		return "the ATK wrapper is loaded but the app did not register (was the accessibility bus up at its start?)",
			"Restart it in this desktop session."
	}
	props := "the JRE's conf/accessibility.properties"
	if jvm, ok := p.maps("libjvm.so"); ok {
		if home, _, ok := strings.Cut(jvm, "/lib/server/"); ok {
			props = home + "/conf/accessibility.properties"
		}
	}
	why = "Java publishes no accessibility tree without the ATK wrapper, which this JVM has not loaded"
	if p.hasArg("-Djavax.accessibility.assistive_technologies") || strings.Contains(p.env("JAVA_TOOL_OPTIONS"), "assistive_technologies") {
		why = "it asks for an assistive technology, but the ATK wrapper is not loaded (is its jar on the class path?)"
	}
	fix = "Install the ATK wrapper (Debian: libatk-wrapper-java libatk-wrapper-java-jni) and restart it with " +
		"JAVA_TOOL_OPTIONS='-Xbootclasspath/a:" + jar + " -Djavax.accessibility.assistive_technologies=" + at + "' in its environment " +
		"(assistive_technologies=" + at + " in " + props + " does it for every app, with the jar on their class path)."
	return why, fix
}

// qtFix: Qt publishes its tree when it finds the accessibility bus (Qt 5 through the root window's AT_SPI_BUS)
// and accessibility is on (org.a11y.Status IsEnabled at its start, or QT_LINUX_ACCESSIBILITY_ALWAYS_ON).
func qtFix(p procInfo, desk deskFacts) (why, fix string) {
	always := p.env("QT_LINUX_ACCESSIBILITY_ALWAYS_ON") != ""
	switch {
	case !desk.AtSpiBus:
		why = "Qt finds the accessibility bus through the root window's AT_SPI_BUS, which does not name it (see the AT_SPI_BUS check)"
		fix = "Fix the AT_SPI_BUS check above, then restart it."
	case !desk.Enabled && !always:
		why = "Qt publishes its tree only when org.a11y.Status IsEnabled is on at its start, and it is off (see that check)"
		fix = "Restart it with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in its environment, or once IsEnabled is on."
	case !always:
		why = "Qt publishes its tree only when org.a11y.Status IsEnabled was on at its start (it is now)"
		fix = "Restart it (with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in its environment it no longer depends on IsEnabled)."
	default:
		why = "Qt did not register, though QT_LINUX_ACCESSIBILITY_ALWAYS_ON is set and the desktop's accessibility bus is on the root window (was the bus up at its start?)"
		fix = "Restart it in this desktop session."
	}
	return why, fix
}
