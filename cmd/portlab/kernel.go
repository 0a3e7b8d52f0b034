package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/portlab/portlab/kernel"
)

// cmdKernel runs the Jupyter kernel for a connection file. SIGINT
// interrupts the running cell instead of stopping the kernel (front ends
// use interrupt_request, but a terminal may send the signal); SIGTERM and
// a shutdown request stop it.
func cmdKernel(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: portlab kernel CONNECTION_FILE") }
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		fs.Usage()
		return fmt.Errorf("kernel: name the connection file (Jupyter passes it)")
	case 1:
	default:
		return fmt.Errorf("kernel: unexpected argument %q after the connection file", fs.Arg(1))
	}
	// The kernel outlives the command's SIGINT context.
	signal.Reset(os.Interrupt)
	ctx, stop := signal.NotifyContext(context.WithoutCancel(ctx), syscall.SIGTERM)
	defer stop()
	ci, err := kernel.ReadConnectionFile(fs.Arg(0))
	if err != nil {
		return err
	}
	crash, previous, err := kernel.KeepCrashOutput(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "portlab kernel: the runtime's crash output is not kept: %v\n", err)
	}
	defer crash.Close()
	k, err := kernel.New(ctx, ci, kernel.Options{PreviousCrash: previous, Host: host()})
	if err != nil {
		return err
	}
	defer k.Close()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	go func() {
		for range interrupts {
			k.Interrupt()
		}
	}()
	if err := k.Run(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
