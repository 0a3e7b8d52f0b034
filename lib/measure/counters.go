package measure

import (
	"fmt"

	"github.com/portlab/portlab/lib/oracle"
)

// CountUops switches the µop counter of the campaign's oracle on (see
// oracle.UopCounter), or says why it cannot. Measurements the file
// already holds keep what they were measured with.
func (c *Campaign) CountUops() error {
	u, ok := c.inner.(oracle.UopCounter)
	if !ok {
		return fmt.Errorf("campaign %s: %w: its oracle (%T) cannot count µops", c.path, oracle.ErrNoUopCounter, c.inner)
	}
	return u.CountUops()
}

// CountPortUops switches the per-port µop counters of the campaign's
// oracle on (see oracle.PortUopCounter), or says why it cannot.
func (c *Campaign) CountPortUops() error {
	u, ok := c.inner.(oracle.PortUopCounter)
	if !ok {
		return fmt.Errorf("campaign %s: %w: its oracle (%T) reads no per-port µop counters", c.path, oracle.ErrNoPortCounters, c.inner)
	}
	return u.CountPortUops()
}
