package oracle

import (
	"errors"
	"fmt"
)

// UopCounter is an oracle whose total µop counter (Measurement.Uops) can
// be switched on: CountUops switches it on, or says why it cannot.
// measure.Hardware reads the PMU's retired-µops event; Simulated always
// counts; Replay and StoredFirst check that their data carries the counts.
type UopCounter interface {
	CountUops() error
}

// PortUopCounter is an oracle whose per-port µop counters
// (Measurement.PortUops, the counts uops.info reads) can be switched on:
// CountPortUops switches them on, or says why it cannot. Simulated
// computes them (PortCounters); Replay and StoredFirst check that their
// data carries them; the hardware oracle reads none.
type PortUopCounter interface {
	CountPortUops() error
}

// ErrNoUopCounter is wrapped by the error of an oracle that cannot count
// µops (Measurement.Uops).
var ErrNoUopCounter = errors.New("the oracle counts no µops")

// ErrNoPortCounters is wrapped by the error of an oracle that cannot count
// µops per port (Measurement.PortUops).
var ErrNoPortCounters = errors.New("the oracle gives no per-port µop counts")

// CountUops does nothing: a simulation counts the µops of every
// experiment (or, with Counted, what the machine's counter counts).
func (s *Simulated) CountUops() error { return nil }

// CountPortUops sets PortCounters: measurements then carry the µops per
// port.
func (s *Simulated) CountPortUops() error {
	s.PortCounters = true
	return nil
}

// CountUops returns nil when the stored measurements carry µop counts
// (some measurement has Uops > 0), an error wrapping ErrNoUopCounter
// otherwise.
func (r *Replay) CountUops() error {
	for _, m := range r.byKey {
		if m.Uops > 0 {
			return nil
		}
	}
	return fmt.Errorf("%s: %w (no stored measurement has a µop count): replay measurements made with the µop counter, e.g. a simulation's (oracle.Simulate) or a campaign measured with measure.Hardware.CountUops", r.name, ErrNoUopCounter)
}

// CountPortUops returns nil when the stored measurements carry per-port
// µop counts (some measurement has PortUops), an error wrapping
// ErrNoPortCounters otherwise.
func (r *Replay) CountPortUops() error {
	for _, m := range r.byKey {
		if m.PortUops != nil {
			return nil
		}
	}
	return fmt.Errorf("%s: %w (no stored measurement has PortUops): replay measurements made with per-port counters, e.g. a simulation's (oracle.SimulateWithPortCounters)", r.name, ErrNoPortCounters)
}

// CountUops switches the live oracle's µop counter on; the stored
// measurements must carry µop counts as well when there are any.
func (s *StoredFirst) CountUops() error {
	if s.stored.Len() > 0 {
		if err := s.stored.CountUops(); err != nil {
			return err
		}
	}
	if err := s.Middleware.CountUops(); err != nil {
		return fmt.Errorf("%s: the live oracle: %w", s.Name(), err)
	}
	return nil
}

// CountPortUops switches the live oracle's per-port counters on; the
// stored measurements must carry per-port counts as well when there are
// any.
func (s *StoredFirst) CountPortUops() error {
	if s.stored.Len() > 0 {
		if err := s.stored.CountPortUops(); err != nil {
			return err
		}
	}
	if err := s.Middleware.CountPortUops(); err != nil {
		return fmt.Errorf("%s: the live oracle: %w", s.Name(), err)
	}
	return nil
}
