//go:build linux

package headless

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// firefoxPrefs quiet a new Firefox profile as its user would have long ago: no first-run tabs (the
// privacy notice, which cannot load offline, opens in a second tab and takes the focus from the
// page), no default-browser question, nothing fetched.
var firefoxPrefs = map[string]string{
	"datareporting.policy.dataSubmissionPolicyBypassNotification": "true",
	"datareporting.policy.firstRunURL":                            `""`,
	"toolkit.telemetry.reportingpolicy.firstRun":                  "false",
	"browser.aboutwelcome.enabled":                                "false",
	"browser.startup.homepage_override.mstone":                    `"ignore"`,
	"startup.homepage_welcome_url":                                `""`,
	"browser.shell.checkDefaultBrowser":                           "false",
	"app.update.enabled":                                          "false",
	"extensions.update.enabled":                                   "false",
	"browser.tabs.warnOnClose":                                    "false",
	"network.captive-portal-service.enabled":                      "false",
}

// StartFirefox starts Debian's firefox-esr in the session on page (a file of fixtures/web, or a URL; see
// PageURL) with a profile of its own, quieted (firefoxPrefs), and returns once Firefox is registered with
// AT-SPI and shows its window: its page may still be loading.
func (s *Session) StartFirefox(ctx context.Context, page string) (*App, error) {
	target, err := s.PageURL(page)
	if err != nil {
		return nil, err
	}
	name, err := s.nextName("firefox-profile")
	if err != nil {
		return nil, err
	}
	profile := filepath.Join(s.Dir, name)
	if err := os.Mkdir(profile, 0o700); err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	var prefs strings.Builder
	for k, v := range firefoxPrefs {
		fmt.Fprintf(&prefs, "user_pref(%q, %s);\n", k, v)
	}
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(prefs.String()), 0o600); err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	return s.StartProgram(ctx, "firefox", []string{"firefox-esr", "--no-remote", "--profile", profile, target})
}
