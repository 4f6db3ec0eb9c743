package main

import (
	"errors"
	"os/exec"
	"path/filepath"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/headless"
)

type desktopCmd struct {
	Run desktopRunCmd `cmd:"" help:"Start a program inside the daemon's headless desktop, on its display and accessibility bus."`
}

type desktopRunCmd struct {
	Command  []string `arg:"" passthrough:"" placeholder:"COMMAND [ARG...]" help:"the program and its arguments, e.g. gtk4-demo, or chromium --force-renderer-accessibility URL."`
	StateDir string   `placeholder:"DIR" type:"path" help:"state dir of the daemon that runs the headless desktop."`
}

// Run starts the program with the desktop's environment and waits for it; its exit status is
// the command's. DISPLAY=:N alone would not do: the program would miss the desktop's session
// bus, so its accessibility tree would reach no one.
func (c *desktopRunCmd) Run(e *env) error {
	info, err := embedded.Discover(c.StateDir)
	if err != nil {
		return err
	}
	environ, err := headless.JoinEnv(filepath.Join(info.StateDir, "headless"))
	if err != nil {
		return model.Errorf(model.CodeUnavailable, "Start the daemon with a headless desktop: axbus serve --headless always (make run does it when there is no desktop session).",
			"the daemon of %s runs no headless desktop", info.StateDir).Wrap(err)
	}
	cmd := exec.CommandContext(e.ctx, c.Command[0], c.Command[1:]...)
	cmd.Env, cmd.Stdout, cmd.Stderr = environ, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exitStatus(exit.ExitCode())
		}
		return model.Errorf(model.CodeBadRequest, "Check the program's name (is it installed, on PATH?).", "cannot start %s: %v", c.Command[0], err)
	}
	return nil
}
