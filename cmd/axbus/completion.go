package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"
)

type completionCmd struct {
	Shell string `arg:"" enum:"bash" default:"bash" help:"the shell: bash."`
}

// Run prints a completion script generated from the command line's own model, so that it
// knows every command, alias, flag and enum value: eval "$(axbus completion bash)".
func (c *completionCmd) Run(e *env) error {
	return bashCompletion(e.stdout, e.parser.Model)
}

func bashCompletion(w io.Writer, app *kong.Application) error {
	var cases strings.Builder
	var names []string
	for _, cmd := range app.Children {
		if cmd.Hidden {
			continue
		}
		words := flagWords(cmd)
		for _, sub := range cmd.Children {
			words = append(words, sub.Name)
		}
		enums := enumCases(cmd)
		for _, name := range append([]string{cmd.Name}, cmd.Aliases...) {
			names = append(names, name)
			fmt.Fprintf(&cases, "    %s)\n      case \"$prev\" in\n%s      esac\n      words=%q ;;\n", name, enums, strings.Join(words, " "))
		}
	}
	sort.Strings(names)
	_, err := fmt.Fprintf(w, `# bash completion for axbus: eval "$(axbus completion bash)"
_axbus() {
  local cur prev words
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  case "${COMP_WORDS[1]}" in
%s    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _axbus axbus
`, strings.Join(append(names, "--help", "--version"), " "), cases.String())
	return err
}

// flagWords are a command's flags as typed: --name and -s.
func flagWords(n *kong.Node) []string {
	words := []string{"--help"}
	for _, f := range n.AllFlags(true) {
		for _, fl := range f {
			if fl.Hidden || fl.Name == "help" {
				continue
			}
			words = append(words, "--"+fl.Name)
			if fl.Short != 0 {
				words = append(words, "-"+string(fl.Short))
			}
		}
	}
	return words
}

// enumCases completes the values of a command's enum flags after the flag.
func enumCases(n *kong.Node) string {
	var b strings.Builder
	for _, f := range n.AllFlags(true) {
		for _, fl := range f {
			if fl.Enum == "" {
				continue
			}
			values := strings.ReplaceAll(fl.Enum, ",", " ")
			fmt.Fprintf(&b, "        --%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", fl.Name, values)
		}
	}
	return b.String()
}
