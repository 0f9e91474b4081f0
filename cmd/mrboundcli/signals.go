package mrboundcli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/mrbound/mrbound/internal/atomicfile"
)

// stoppers counts, per signal, the contexts (signalContext,
// sweepSignalContext) alive now whose command stops cleanly when that
// signal cancels them.
var stoppers = map[os.Signal]*atomic.Int32{os.Interrupt: new(atomic.Int32), syscall.SIGTERM: new(atomic.Int32)}

// watchSignals makes SIGINT and SIGTERM stop mrbound without leaving a
// temporary file behind. A command that has a signal context alive is left
// to stop on its own (a solve reports its incumbent and writes its outputs
// whole); a second signal, or a signal while no such context is alive,
// removes every temporary file being written (atomicfile.RemoveTemps) and
// exits at once with 128 + the signal's number, the shell's convention
// (130 for SIGINT, 143 for SIGTERM). Without this, a signal would kill the
// process between a temporary file's creation and its rename.
func watchSignals(stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		handled := false
		for {
			select {
			case <-done:
				return
			case sig := <-ch:
				if !handled && stoppers[sig].Load() > 0 {
					handled = true
					continue
				}
				n := atomicfile.RemoveTemps()
				fmt.Fprintf(stderr, "mrbound: stopped by %v; %d unfinished output(s) removed, no file half-written\n", sig, n)
				os.Exit(128 + signalNumber(sig))
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return int(syscall.SIGINT)
}

// notifyContext is signal.NotifyContext registered with watchSignals
// until its cancel.
func notifyContext(sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := signal.NotifyContext(context.Background(), sigs...)
	for _, s := range sigs {
		stoppers[s].Add(1)
	}
	var once atomic.Bool
	return ctx, func() {
		if once.CompareAndSwap(false, true) {
			for _, s := range sigs {
				stoppers[s].Add(-1)
			}
		}
		cancel()
	}
}
