package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/source"
)

const machineUsage = `portlab machine — write this host's machine description (portlab.machine/v1)

  portlab machine -mapping M -latencies CAMPAIGN.jsonl -out host.json [flags]

  -mapping       the port mapping inferred on this host: a mapping file (e.g.
                 PREFIX.json of portlab infer pmevo -out PREFIX) or a name
  -latencies     measurements of the latency design on this host (portlab
                 measure -design latency -out FILE); a comma-separated list
                 is merged
  -out           the machine file to write; portlab predict -blocks and the
                 simulator read it
  -load-latency  the host's load-to-use latency in cycles (0: not known),
                 added to the register latency of forms with a memory input;
                 without it those forms keep the simulator's defaults
  -store-forward-latency
                 cycles from a store's data to a load of the same bytes
                 (a chain "mov [rdi+rbx*8], rax; mov rax, [rdi+rbx*8]" less
                 the load's own latency beyond -load-latency); 0: not known
  -vector-store-forward-latency
                 the same into a vector register ("vmovsd [rdi], xmm0;
                 vmovsd xmm0, [rdi]"); 0: as -store-forward-latency
  -memory-renaming
                 a load of the address a store wrote the same way (one base
                 register, same displacement) reads the stored register with
                 no latency (a chain "mov [rdi], rax; mov rax, [rdi]" runs
                 faster than the forwarding latency)
  -merge-latency cycles from an XMM register's old value to the result of a
                 legacy-SSE instruction writing it (a chain of "movapd xmm0,
                 xmm1"); 0: no merge
  -address-increment-latency
                 cycles of adding a constant to a register the block uses as
                 an address (a chain "mov rdi, [rbx]; add rbx, 8" per
                 iteration, when it runs faster than "add rbx, 8" alone); 0:
                 not described
  -eliminated    a file of forms (one a line) the host runs without an
                 execution port — moves eliminated at renaming, nops —
                 measured faster than any port could run them; the mapping
                 gives them no µops and the front end (-ipc) bounds them
  -overrides     files of values set by hand, comma-separated
                 (portlab.machine-override/v1: latencies and µops of named
                 forms, chains, fusions, wakeup, complexLEALatency and other
                 machine fields; see machine.Override), applied in order
                 after the measured ones: the corrections of an earlier
                 description carried over to one written from new data
  -name          the machine's name (default "host")
  -ipc, -rob, -issue, -retire
                 front-end peak (instructions per cycle), reorder buffer
                 (µops), issue and retire widths (µops per cycle); 0: not
                 described

What is left out (latencies of forms the mapping lacks, forms with a memory
input without -load-latency, forms without a measured latency) is listed.
`

func cmdMachine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("machine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, machineUsage) }
	mapping := fs.String("mapping", "", "port mapping inferred on the host")
	lats := fs.String("latencies", "", "latency design measurements")
	out := fs.String("out", "", "machine file to write")
	load := fs.Int("load-latency", 0, "load-to-use latency in cycles")
	name := fs.String("name", "host", "machine name")
	fwd := fs.Int("store-forward-latency", 0, "store-to-load forwarding latency in cycles")
	vfwd := fs.Int("vector-store-forward-latency", 0, "store-to-load forwarding latency into a vector register")
	renaming := fs.Bool("memory-renaming", false, "loads of a stored address read the stored register")
	merge := fs.Int("merge-latency", 0, "legacy-SSE merge latency in cycles")
	ainc := fs.Float64("address-increment-latency", 0, "latency of a constant added to an address register")
	elim := fs.String("eliminated", "", "file of forms that run without an execution port")
	ipc := fs.Float64("ipc", 0, "front-end peak in instructions per cycle")
	rob := fs.Int("rob", 0, "reorder buffer in µops")
	issue := fs.Int("issue", 0, "issue width in µops per cycle")
	retire := fs.Int("retire", 0, "retire width in µops per cycle")
	overrides := fs.String("overrides", "", "files of values set by hand (portlab.machine-override/v1), comma-separated, applied in order")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, f := range []struct{ flag, v string }{{"mapping", *mapping}, {"latencies", *lats}, {"out", *out}} {
		if f.v == "" {
			return fmt.Errorf("machine needs -%s (see portlab machine -h)", f.flag)
		}
	}
	for _, f := range []struct {
		flag string
		v    int
	}{{"load-latency", *load}, {"store-forward-latency", *fwd}, {"vector-store-forward-latency", *vfwd}, {"merge-latency", *merge}, {"rob", *rob}, {"issue", *issue}, {"retire", *retire}} {
		if f.v < 0 {
			return fmt.Errorf("-%s %d: want a whole number ≥ 0", f.flag, f.v)
		}
	}
	if !(*ainc >= 0) || math.IsInf(*ainc, 0) {
		return fmt.Errorf("-address-increment-latency %v: want a number ≥ 0", *ainc)
	}
	if !(*ipc >= 0) {
		return fmt.Errorf("-ipc %v: want a number ≥ 0", *ipc)
	}
	if (*fwd > 0 || *vfwd > 0 || *renaming) && *load == 0 {
		return fmt.Errorf("-store-forward-latency and -memory-renaming need -load-latency (the latency they replace)")
	}
	var eliminated []string
	if *elim != "" {
		data, err := os.ReadFile(*elim)
		if err != nil {
			return flagError("eliminated", err)
		}
		for n, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f, err := isa.ParseName(line)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", *elim, n+1, err)
			}
			eliminated = append(eliminated, f.Key())
		}
		if *ipc == 0 && *issue == 0 {
			return fmt.Errorf("-eliminated needs -ipc or -issue: forms without µops are bounded by the front end only")
		}
	}
	type overrideFile struct {
		name string
		data []byte
	}
	var overs []overrideFile
	if *overrides != "" {
		for _, name := range strings.Split(*overrides, ",") {
			data, err := os.ReadFile(name)
			if err != nil {
				return flagError("overrides", err)
			}
			overs = append(overs, overrideFile{name, data})
		}
	}
	mach, err := machine.Lookup(*mapping)
	if err != nil {
		return flagError("mapping", err)
	}
	set, err := source.LoadExperiments(ctx, *lats)
	if err != nil {
		return flagError("latencies", err)
	}
	m, notes, err := measure.HostMachine(measure.HostDescription{
		Name: *name, Mapping: mach.Mapping, MappingSource: mach.MappingSource, Latencies: set, LoadLatency: *load,
		StoreForwardLatency: *fwd, VectorStoreForwardLatency: *vfwd, Renaming: *renaming, MergeLatency: *merge, Eliminated: eliminated, AddressIncrementLatency: *ainc,
		FrontEnd: machine.FrontEnd{InstructionsPerCycle: *ipc}, ReorderBuffer: *rob, IssueWidth: *issue, RetireWidth: *retire,
	})
	if err != nil {
		return err
	}
	for _, o := range overs {
		if m, err = machine.Override(m, o.data, o.name); err != nil {
			return err
		}
	}
	if err := machine.Write(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s, latencies of %d forms\n", *out, m, len(m.Latencies))
	for _, n := range notes {
		fmt.Fprintln(stdout, "  "+n)
	}
	return nil
}
