package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/schemas"
)

type schemaCmd struct {
	Name string `arg:"" optional:"" help:"a schema's name (apps.request, wait.reply, condition, event, ...); none lists them."`
}

func (c *schemaCmd) Run(e *env) error {
	if c.Name == "" {
		_, err := fmt.Fprintln(e.stdout, strings.Join(schemas.Names(), "\n"))
		return err
	}
	doc, ok := schemas.Get(c.Name)
	if !ok {
		return model.Errorf(model.CodeBadRequest, "The schemas are: "+strings.Join(schemas.Names(), ", ")+".",
			"no schema %q", c.Name)
	}
	if _, err := e.stdout.Write(doc); err != nil {
		return err
	}
	if !bytes.HasSuffix(doc, []byte("\n")) { // a terminal's prompt starts on a line of its own
		_, err := io.WriteString(e.stdout, "\n")
		return err
	}
	return nil
}
