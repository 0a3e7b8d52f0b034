package source

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Oracle is where measurements come from, with every name checked: exactly
// one of Replay (stored experiments answered as measured), Simulation (a
// simulated machine) and Forms (measured on this machine's CPUs, journaled
// in Campaign when set), and optionally Stored answers asked first.
type Oracle struct {
	Replay     *Experiments
	Simulation *Simulation
	// Forms, CPUs and Campaign: measuring on this machine, on CPUs (none:
	// CPU 0; see ParseCPUs and OpenHardware), journaled in Campaign.
	Forms    *Forms
	CPUs     []int
	Campaign string
	// Version is the portlab version written into the campaign's header
	// with the machine's fingerprint (measure.Campaign.Begin).
	Version string
	// Stored, with Simulation or Forms: measurements that answer the
	// experiments they hold (oracle.StoredFirst).
	Stored *Experiments
	// HoldOut, with Replay: replay only the experiments of one or two
	// distinct instructions (singletons and pairs); the others are held
	// out for evaluation (see SplitHeldOut).
	HoldOut bool
}

// Check reports a combination Open cannot serve: not exactly one of
// Replay, Simulation and Forms, Stored with Replay, or random sets in
// Replay or Stored (they need a truth to be measured with).
func (o *Oracle) Check() error {
	n := 0
	for _, given := range []bool{o.Replay != nil, o.Simulation != nil, o.Forms != nil} {
		if given {
			n++
		}
	}
	switch {
	case n != 1:
		return errors.New("source: want exactly one of replayed experiments, a simulation and forms to measure")
	case o.HoldOut && o.Replay == nil:
		return errors.New("source: holding experiments out needs replayed experiments")
	case o.Stored != nil && o.Replay != nil:
		return errors.New("source: stored answers need a simulation or forms to measure (with replayed experiments, list the files there)")
	case o.Replay != nil && o.Replay.NeedsTruth():
		return fmt.Errorf("experiments %q: random experiments are measured with a truth; replay files or data sets", o.Replay)
	case o.Stored != nil && o.Stored.NeedsTruth():
		return fmt.Errorf("stored %q: random experiments are measured with a truth; store files or data sets", o.Stored)
	}
	return nil
}

// Opened is an opened Oracle: Oracle is what to ask, the other fields the
// parts it is made of (nil when not used).
type Opened struct {
	// Oracle is the outermost oracle: StoredFirst, Campaign, Hardware,
	// Simulated or Replay.
	Oracle oracle.Oracle
	// Instructions are the simulated machine's or the forms to measure;
	// Data the replayed experiments, HeldOut those held out of them.
	Instructions []string
	Data         *portmap.ExperimentSet
	HeldOut      *portmap.ExperimentSet
	Machine      *machine.Machine
	Simulated    *oracle.Simulated
	Hardware     *measure.Hardware
	Campaign     *measure.Campaign
	StoredFirst  *oracle.StoredFirst

	spec  *Oracle
	notes io.Writer
}

// Open does the work the names stand for, in two steps so that the base
// oracle can be set up (counters) before anything is journaled: it loads
// the replayed experiments, or the simulated machine, or the forms and the
// hardware oracle (with several CPUs after the interference probe, see
// OpenHardware); Complete then opens the campaign journal and puts the
// stored answers first. Notes such as the machine simulated, the CPUs'
// slow-down and the stored answers' count go to notes (when not nil).
// Close the result when done.
func (o *Oracle) Open(ctx context.Context, notes io.Writer) (*Opened, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	op := &Opened{spec: o, notes: notes}
	switch {
	case o.Replay != nil:
		data, err := o.Replay.Load(ctx, &Options{Notes: notes})
		if err != nil {
			return nil, err
		}
		name := o.Replay.String()
		if o.HoldOut {
			data, op.HeldOut = SplitHeldOut(data)
			name += " (training part)"
		}
		op.Data, op.Oracle = data, oracle.NewReplay(name, data)
	case o.Simulation != nil:
		m, sim, err := o.Simulation.Open(notes)
		if err != nil {
			return nil, err
		}
		op.Machine, op.Simulated, op.Oracle, op.Instructions = m, sim, sim, m.Mapping.Instructions()
	default:
		insns, err := o.Forms.Load()
		if err != nil {
			return nil, err
		}
		cpus := o.CPUs
		if len(cpus) == 0 {
			cpus = []int{0}
		}
		hw, err := OpenHardware(ctx, cpus, notes)
		if err != nil {
			return nil, err
		}
		op.Hardware, op.Oracle, op.Instructions = hw, hw, insns
	}
	return op, nil
}

// Complete opens the campaign journal around the hardware oracle and puts
// the stored answers first, as the Oracle asks.
func (op *Opened) Complete(ctx context.Context) error {
	if op.Hardware != nil && op.spec.Campaign != "" && op.Campaign == nil {
		c, err := measure.OpenHostCampaign(ctx, op.spec.Campaign, op.Hardware, op.spec.Version, nil)
		if err != nil {
			return err
		}
		op.Campaign, op.Oracle = c, c
	}
	if op.spec.Stored != nil && op.StoredFirst == nil {
		stored, err := op.spec.Stored.Load(ctx, &Options{Notes: op.notes})
		if err != nil {
			return err
		}
		op.StoredFirst = oracle.NewStoredFirst(stored, op.spec.Stored.String(), op.Oracle)
		op.Oracle = op.StoredFirst
		if op.notes != nil {
			sigma, n := op.StoredFirst.Noise()
			fmt.Fprintf(op.notes, "stored: %d measurements of %s answer first (noise from their passes: %.2f%%, %d measurements)\n", op.StoredFirst.Stored(), op.spec.Stored, 100*sigma, n)
		}
	}
	return nil
}

// SplitHeldOut splits set into the experiments of one or two distinct
// instructions (singletons and pairs: a training set) and the others
// (e.g. a campaign's random length-5 experiments: held out to evaluate
// on), each in the order of set.
func SplitHeldOut(set *portmap.ExperimentSet) (train, heldOut *portmap.ExperimentSet) {
	short := func(m portmap.Measurement) bool { return m.Experiment.Distinct() <= 2 }
	return set.Filter(short), set.Filter(func(m portmap.Measurement) bool { return !short(m) })
}

// Truth returns the options that measure random experiment sets with the
// simulated machine's exact truth (no noise), drawn from its instructions
// with the run's seed (see Options.Seed), and notes; without a simulation
// they have no truth (random sets then fail to load).
func (op *Opened) Truth(seed uint64, notes io.Writer) *Options {
	if op.Machine == nil {
		return &Options{Seed: seed, Notes: notes}
	}
	return &Options{Truth: op.Machine.Oracle(0, 1), Instructions: op.Machine.Mapping.Instructions(), Seed: seed, Notes: notes}
}

// Close closes the campaign journal and the hardware oracle.
func (op *Opened) Close() error {
	var errs []error
	if op.Campaign != nil {
		errs = append(errs, op.Campaign.Close())
	}
	if op.Hardware != nil {
		errs = append(errs, op.Hardware.Close())
	}
	return errors.Join(errs...)
}
