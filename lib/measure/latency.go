package measure

import (
	"fmt"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/operands"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// LatencyChain is the number of copies of a form in the loop body of a
// latency experiment: long enough that the loop's own instructions (dec,
// jnz; independent of the chain) hide behind it.
const LatencyChain = 64

// LatencyKernel builds the kernel of a latency experiment of package
// design (design.Latency: one instruction named by design.LatencyName): a
// chain of LatencyChain copies of the form, each copy's output the next
// one's input (operands.InstantiateLatency), so that the cycles per copy
// are the latency of the operand pair. Set it as Hardware.Kernels to
// measure a latency design; any other experiment is an error.
func LatencyKernel(e portmap.Experiment) (Kernel, int, error) {
	items := e.Items()
	if len(items) != 1 || items[0].Count != 1 {
		return Kernel{}, 0, fmt.Errorf("measure: %v is no latency experiment (want one instruction named \"latency FROM->TO: FORM\")", e)
	}
	name, from, to, ok := design.ParseLatencyName(items[0].Insn)
	if !ok {
		return Kernel{}, 0, fmt.Errorf("measure: %q is no latency experiment (want \"latency FROM->TO: FORM\")", items[0].Insn)
	}
	f, err := isa.ParseName(name)
	if err != nil {
		return Kernel{}, 0, &oracle.InsnError{Insn: items[0].Insn, Err: fmt.Errorf("measure: %w", err)}
	}
	body, err := operands.InstantiateLatency(f, operands.LatencyPair{From: from, To: to}, LatencyChain)
	if err != nil {
		return Kernel{}, 0, err
	}
	return Kernel{Name: items[0].Insn, Body: body, Init: operands.X86Init()}, LatencyChain, nil
}
