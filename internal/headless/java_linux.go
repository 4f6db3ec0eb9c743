//go:build linux

package headless

import (
	"os"
	"path/filepath"
)

// Java is the launcher the Swing fixture runs with: Debian's alternatives link, a JRE with AWT's X11 library
// (a java found on PATH may be another build).
var Java = "/usr/bin/java"

// atkWrapper is the class Java loads as its assistive technology: GNOME's ATK wrapper, which puts Swing's
// accessibility on AT-SPI. Without it Java never reaches the registry.
const atkWrapper = "org.GNOME.Accessibility.AtkWrapper"

// Where Debian installs the ATK wrapper: its jar (libatk-wrapper-java) and its JNI library
// (libatk-wrapper-java-jni, in the multiarch dir).
var (
	atkWrapperJar = "/usr/share/java/java-atk-wrapper.jar"
	atkWrapperJNI = []string{"/usr/lib/*/jni/libatk-wrapper.so", "/usr/lib/jni/libatk-wrapper.so"}
)

// swingJava is the command line that runs a Swing program as a single source file with the ATK wrapper
// loaded, the file to append; an error names the Debian packages missing. The source launcher needs the
// jdk.compiler module, which Debian ships in openjdk-17-jre-headless's module image: no JDK is needed.
func swingJava() ([]string, error) {
	if pkgs := javaPackages(); len(pkgs) > 0 {
		return nil, missingPackages("the swing fixture needs", pkgs)
	}
	return []string{Java, "-cp", atkWrapperJar, "-Djava.library.path=" + filepath.Dir(jniLibrary()),
		"-Djavax.accessibility.assistive_technologies=" + atkWrapper,
		// C1 alone and the serial collector: the start takes less of a 2-core machine.
		"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}, nil
}

// javaPackages lists the Debian packages missing for a Swing app on AT-SPI.
func javaPackages() []string {
	var missing []string
	real, err := filepath.EvalSymlinks(Java)
	if err != nil {
		missing = append(missing, "openjdk-17-jre")
	} else if _, err := os.Stat(filepath.Join(filepath.Dir(real), "..", "lib", "libawt_xawt.so")); err != nil {
		missing = append(missing, "openjdk-17-jre") // a headless JRE: Swing cannot open a window
	}
	if _, err := os.Stat(atkWrapperJar); err != nil {
		missing = append(missing, "libatk-wrapper-java")
	}
	if jniLibrary() == "" {
		missing = append(missing, "libatk-wrapper-java-jni")
	}
	return missing
}

// jniLibrary is the ATK wrapper's JNI library, or "" when it is not installed.
func jniLibrary() string {
	for _, pattern := range atkWrapperJNI {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[0]
		}
	}
	return ""
}
