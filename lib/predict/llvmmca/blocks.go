package llvmmca

import (
	"context"
	"errors"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// PredictBlocks runs llvm-mca on blocks as they are (package block:
// instructions in order with their own operands, no copies and no operand
// allocation), each block a code region of one llvm-mca run per BatchSize
// blocks, and returns the Metric per iteration: Total Cycles / Iterations
// (llvm-mca repeats the block Iterations times, as BHive runs a block back
// to back) or Block RThroughput. The instructions are written in Intel
// syntax (BlockLine). Blocks llvm-mca rejects or cannot analyse get NaN
// and are listed in an *oracle.UnsupportedError, as Predict does for
// experiments; the batches run one after the other. Together with
// sim.Simulator it makes the two predictors comparable on the same blocks
// (sim.Evaluate).
func (p *Predictor) PredictBlocks(ctx context.Context, blocks []*block.Block) ([]float64, error) {
	if p.CPU == "" {
		return nil, errors.New("llvm-mca: CPU (-mcpu) not set, e.g. \"skylake\"")
	}
	bin, err := p.binary()
	if err != nil {
		return nil, err
	}
	jobs := make([]*mcaJob, len(blocks))
	var todo []*mcaJob
	for i, b := range blocks {
		j := &mcaJob{at: []int{i}, isa: isa.X86, copies: 1}
		jobs[i] = j
		if b == nil || len(b.Insns) == 0 {
			j.fail("", "empty block")
			continue
		}
		j.exp = b.Experiment()
		for k := range b.Insns {
			j.lines = append(j.lines, BlockLine(&b.Insns[k]))
			j.insns = append(j.insns, b.Insns[k].Form.Key())
		}
		todo = append(todo, j)
	}
	if len(todo) > 0 {
		if err := p.probe(ctx, bin, isa.X86); err != nil {
			return nil, err
		}
	}
	size := p.BatchSize
	if size <= 0 {
		size = 200
	}
	for done := 0; len(todo) > 0; {
		k := min(size, len(todo))
		if err := p.run(ctx, bin, todo[:k]); err != nil {
			return nil, err
		}
		todo = todo[k:]
		done += k
		if p.Progress != nil {
			p.Progress(done, len(blocks))
		}
	}
	values := make([]float64, len(blocks))
	var failures []portmap.Failure
	for i, j := range jobs {
		if f, failed := j.failure(i); failed {
			failures = append(failures, f)
			continue
		}
		values[i] = j.value
	}
	return oracle.Unsupported(p.Name(), values, failures)
}

// BlockLine returns the instruction in Intel syntax without the size
// keyword's ambiguity: prefix, mnemonic and operands as block.Operand
// writes them ("vfmadd231ps ymm0, ymm1, ymm2", "mov qword ptr [rdi], rax").
// A branch target without a symbol (decoded hex) is written as the label
// ".Ltarget", which llvm-mca accepts as an undefined symbol.
func BlockLine(in *block.Insn) string {
	var b strings.Builder
	if in.Form.Prefix != "" {
		b.WriteString(in.Form.Prefix)
		b.WriteByte(' ')
	}
	b.WriteString(in.Form.Mnemonic)
	for k, o := range in.Operands {
		if k == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		s := o.String()
		if o.Kind == isa.KindLabel && o.Symbol == "" || (in.Branch && o.HasAddr && o.Symbol == "") {
			s = ".Ltarget"
		}
		b.WriteString(s)
	}
	return b.String()
}
