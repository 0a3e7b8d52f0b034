package main

import (
	"context"
	"flag"
	"io"

	"github.com/portlab/portlab/kernel/repl"
)

// cmdREPL runs the kernel's terminal REPL (package kernel/repl) with the
// library, plots, gonum and gonum/plot (host).
func cmdREPL(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("repl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	outDir := fs.String("out", "", "folder for images and HTML the cells show (default: a temporary folder)")
	histFile := fs.String("history", "", "history `file` (default: portlab/repl_history in the user config folder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return repl.Run(ctx, stdin, stdout, stderr, repl.Options{
		Host:    host(),
		OutDir:  *outDir,
		History: *histFile,
		Banner:  "portlab REPL — Go with the port-mapping library pre-loaded; %help for help, Ctrl-D to quit",
	})
}
