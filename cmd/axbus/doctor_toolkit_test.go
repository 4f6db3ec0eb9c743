package main

import (
	"reflect"
	"strings"
	"testing"
)

// The toolkit of a silent process, found from what /proc says of it, and the fix the doctor gives.
func TestDoctorToolkitDiagnosis(t *testing.T) {
	const sessionBus = "unix:path=/run/user/1000/bus"
	okDesk := deskFacts{SessionBus: sessionBus, A11yBus: "unix:path=/run/user/1000/at-spi/bus_0", AtSpiBus: true, Enabled: true}
	gtk3 := []string{"/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2404.32", "/usr/lib/x86_64-linux-gnu/libatk-bridge-2.0.so.0.0.0"}
	jvm := []string{"/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so", "/usr/lib/jvm/java-17-openjdk-amd64/lib/libawt_xawt.so", gtk3[0]}
	for _, c := range []struct {
		name    string
		p       procInfo
		desk    deskFacts
		toolkit string
		why     []string // each must be in Why
		fix     []string // each must be in Fix
	}{
		{"gtk3 without the bridge", procInfo{Exe: "/usr/bin/gtk3-widget-factory", Libs: gtk3, Environ: []string{"NO_AT_BRIDGE=1"}}, okDesk,
			"GTK 3", []string{"NO_AT_BRIDGE=1"}, []string{"without NO_AT_BRIDGE"}},
		{"gtk4 with GTK_A11Y=none", procInfo{Exe: "/usr/bin/gtk4-demo", Libs: []string{"/usr/lib/x86_64-linux-gnu/libgtk-4.so.1.800.3"}, Environ: []string{"GTK_A11Y=none"}}, okDesk,
			"GTK 4", []string{"GTK_A11Y=none"}, []string{"without GTK_A11Y"}},
		{"gtk3 on another session bus", procInfo{Exe: "/usr/bin/gedit", Libs: gtk3, Environ: []string{"DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/other_bus,guid=1"}}, okDesk,
			"GTK 3", []string{"another D-Bus session bus", "/tmp/other_bus"}, []string{"axbus desktop run"}},
		{"the same bus written otherwise", procInfo{Exe: "/usr/bin/gedit", Libs: gtk3, Environ: []string{"DBUS_SESSION_BUS_ADDRESS=" + sessionBus + ",guid=abc"}}, okDesk,
			"GTK 3", []string{"GTK registers"}, []string{"NO_AT_BRIDGE and GTK_A11Y unset"}},
		{"qt5 without AT_SPI_BUS", procInfo{Exe: "/usr/bin/qtapp", Libs: []string{"/usr/lib/x86_64-linux-gnu/libQt5Gui.so.5.15.8", gtk3[0]}}, deskFacts{Enabled: true},
			"Qt 5", []string{"AT_SPI_BUS"}, []string{"AT_SPI_BUS check"}},
		{"qt6 with IsEnabled off", procInfo{Exe: "/usr/bin/qt6app", Libs: []string{"/usr/lib/x86_64-linux-gnu/libQt6Gui.so.6.4.2"}}, deskFacts{AtSpiBus: true},
			"Qt 6", []string{"IsEnabled", "off"}, []string{"QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1"}},
		{"java without the wrapper", procInfo{Exe: "/usr/lib/jvm/java-17-openjdk-amd64/bin/java", Cmdline: []string{"java", "SwingProbe.java"}, Libs: jvm}, okDesk,
			"Java", []string{"ATK wrapper"}, []string{"libatk-wrapper-java libatk-wrapper-java-jni",
				"JAVA_TOOL_OPTIONS='-Xbootclasspath/a:/usr/share/java/java-atk-wrapper.jar -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper'",
				"/usr/lib/jvm/java-17-openjdk-amd64/conf/accessibility.properties"}},
		{"java asking for it, wrapper missing", procInfo{Exe: "/usr/bin/java", Cmdline: []string{"java", "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper", "App"}, Libs: jvm}, okDesk,
			"Java", []string{"asks for an assistive technology", "class path"}, []string{"Install the ATK wrapper", "-Xbootclasspath/a:"}},
		{"java with NO_AT_BRIDGE", procInfo{Exe: "/usr/bin/java", Libs: append(jvm, "/usr/lib/x86_64-linux-gnu/jni/libatk-wrapper.so.6.0.0"), Environ: []string{"NO_AT_BRIDGE=1"}}, okDesk,
			"Java", []string{"NO_AT_BRIDGE=1"}, []string{"without NO_AT_BRIDGE"}},
		{"chromium with accessibility off", procInfo{Exe: "/usr/lib/chromium/chromium", Cmdline: []string{"/usr/lib/chromium/chromium --disable-renderer-accessibility about:blank"}, Libs: gtk3}, okDesk,
			"Chromium", []string{"was off then"}, []string{"ACCESSIBILITY_ENABLED=1", "without --disable-renderer-accessibility", "--force-renderer-accessibility"}},
		{"chrome, forced, IsEnabled off", procInfo{Exe: "/opt/google/chrome/chrome", Cmdline: []string{"chrome", "--force-renderer-accessibility"}}, deskFacts{AtSpiBus: true},
			"Chromium", []string{"it is off", "does not make it register"}, []string{"ACCESSIBILITY_ENABLED=1"}},
		{"electron by name", procInfo{Exe: "/usr/lib/electron/electron", Cmdline: []string{"electron", "app"}}, okDesk,
			"Electron", []string{"IsEnabled"}, []string{"ACCESSIBILITY_ENABLED=1"}},
		{"electron by its app.asar", procInfo{Exe: "/usr/share/code/code", ElectronApp: true, Libs: gtk3}, okDesk,
			"Electron", nil, []string{"ACCESSIBILITY_ENABLED=1", "--force-renderer-accessibility"}},
		{"xterm", procInfo{Exe: "/usr/bin/xterm", Libs: []string{"/usr/lib/x86_64-linux-gnu/libXaw.so.7.0.0"}}, okDesk,
			"unknown toolkit", []string{"none axbus knows"}, []string{"axbus screenshot"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.p.Readable = true
			d := diagnose(c.p, c.desk)
			if d.Toolkit != c.toolkit {
				t.Errorf("toolkit %q, want %q", d.Toolkit, c.toolkit)
			}
			for _, w := range c.why {
				if !strings.Contains(d.Why, w) {
					t.Errorf("why %q lacks %q", d.Why, w)
				}
			}
			for _, f := range c.fix {
				if !strings.Contains(d.Fix, f) {
					t.Errorf("fix %q lacks %q", d.Fix, f)
				}
			}
		})
	}
	if d := diagnose(procInfo{PID: 7}, okDesk); d.Toolkit != tkUnknown || !strings.Contains(d.Why, "cannot be read") {
		t.Errorf("an unreadable process: %+v", d)
	}
}

// /proc's texts as the diagnosis reads them.
func TestDoctorProcParsing(t *testing.T) {
	maps := `55d0c0a00000-55d0c0a01000 r--p 00000000 fe:01 1 /usr/bin/gtk3-widget-factory
7f0000000000-7f0000001000 r--p 00000000 fe:01 2 /usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2404.32
7f0000001000-7f0000002000 r-xp 00001000 fe:01 2 /usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2404.32
7f0000002000-7f0000003000 rw-p 00000000 00:00 0 [heap]
7f0000003000-7f0000004000 rw-s 00000000 00:01 3 /memfd:wayland-cursor (deleted)
7f0000004000-7f0000005000 r--p 00000000 fe:01 4 /home/a b/lib with space.so (deleted)
7f0000005000-7f0000006000 rw-p 00000000 00:00 0
`
	want := []string{"/usr/bin/gtk3-widget-factory", "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2404.32", "/memfd:wayland-cursor", "/home/a b/lib with space.so"}
	if got := parseMaps(maps); !reflect.DeepEqual(got, want) {
		t.Errorf("parseMaps: %q, want %q", got, want)
	}
	for text, want := range map[string]int{
		"4242 (gtk3-widget-fac) S 4200 4242 4200 0 -1 4194560": 4200,
		"77 (a (b) c) R 1 77 77 0 -1":                          1,
		"garbage":                                              0,
	} {
		if got := parseStatPPID(text); got != want {
			t.Errorf("parseStatPPID(%q) = %d, want %d", text, got, want)
		}
	}
	if got := splitNUL([]byte("A=1\x00B=2\x00")); !reflect.DeepEqual(got, []string{"A=1", "B=2"}) {
		t.Errorf("splitNUL: %q", got)
	}
	if !sameBus("unix:path=/run/user/1000/bus", "unix:path=/run/user/1000/bus,guid=0123") || sameBus("unix:path=/a", "unix:path=/b") ||
		sameBus("unix:abstract=/tmp/x", "unix:path=/tmp/x") {
		t.Error("sameBus")
	}
}

// A window's process speaks through a registered app when it is one, or its parent or child of the same
// program; a terminal that started it does not.
func TestDoctorRegisteredAs(t *testing.T) {
	procs := procCache{
		10: {PID: 10, PPID: 1, Exe: "/usr/lib/libreoffice/program/oosplash", Readable: true},
		11: {PID: 11, PPID: 10, Exe: "/usr/lib/libreoffice/program/soffice.bin", Readable: true},
		20: {PID: 20, PPID: 1, Exe: "/usr/libexec/gnome-terminal-server", Readable: true},
		21: {PID: 21, PPID: 20, Exe: "/usr/bin/qtapp", Readable: true},
		30: {PID: 30, PPID: 1, Exe: "/usr/lib/firefox-esr/firefox-esr", Readable: true},
		31: {PID: 31, PPID: 30, Exe: "/usr/lib/firefox-esr/firefox-esr", Readable: true},
	}
	registered := map[int]bool{11: true, 20: true, 30: true}
	for pid, want := range map[int]int{10: 11, 11: 11, 21: 0, 31: 30, 30: 30} {
		if got := registeredAs(pid, registered, procs); got != want {
			t.Errorf("registeredAs(%d) = %d, want %d", pid, got, want)
		}
	}
}
