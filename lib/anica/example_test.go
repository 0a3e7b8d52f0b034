package anica_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/sim"
)

// β of a concrete block: its instructions' exact features and which of
// their operands alias (thesis §8.1.4).
func ExampleDomain_Beta() {
	m, _ := machine.Lookup(machine.ZenPlusLikeName)
	forms, _ := anica.MachineForms(m)
	d, _ := anica.NewDomain(forms, anica.DefaultEditDistance)
	b, _ := block.Parse("mov rbx, qword ptr [rsi+64]\nadd qword ptr [rsi+64], rbx", block.Intel)
	a, _ := d.Beta(b)
	fmt.Print(a.Text())
	fmt.Println(len(d.Expansions(a)), "expansions, e.g.", d.Describe(a, d.Expansions(a)[0]))
	// Output:
	// i1: form mov W:GPR:64, qword ptr R:MEM(64); mnemonic mov+0; operands {W:GPR:64, qword ptr R:MEM(64)}; memory {R, S:64}; category (none); extension (none);
	// i2: form add qword ptr RW:MEM(64), R:GPR:64; mnemonic add+0; operands {R:GPR:64, W:flags, qword ptr RW:MEM(64)}; memory {R, S:64, W}; category (none); extension (none);
	// op1 of i1 must alias op2 of i2
	// op2 of i1 must alias op1 of i2
	// 4 expansions, e.g. i1 form mov W:GPR:64, qword ptr R:MEM(64) → ⊤
}

// A campaign between the zenplus-like simulator and a copy in which every
// vpmullw form takes 24 µops on port 0 finds exactly that class.
func ExampleCampaign_Run() {
	m, _ := machine.Lookup(machine.ZenPlusLikeName)
	forms, _ := anica.MachineForms(m)
	d, _ := anica.NewDomain(forms, anica.DefaultEditDistance)
	slow := *m
	slow.Name = "slow vpmullw"
	slow.Mapping = m.Mapping.Clone()
	for _, f := range forms {
		if f.Mnemonic == "vpmullw" {
			_ = slow.Mapping.SetUsage(f.Key(), "24*p0")
		}
	}
	a, _ := sim.New(m, sim.Options{})
	b, _ := sim.New(&slow, sim.Options{})
	c, _ := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(a), anica.NewCache(b)}, anica.Config{Seed: 1, Samples: 30})
	if err := c.Run(context.Background(), anica.Budget{Blocks: 100}); err != nil {
		fmt.Println(err)
		return
	}
	ds := c.Filter(c.Discoveries)
	anica.Rank(ds)
	for _, disc := range ds {
		fmt.Print(disc.Block.Text())
		fmt.Println("forms:", disc.Generality)
	}
	// Output:
	// i1: mnemonic vpmullw+2;
	// forms: 4
}

// Discoveries as a table: the abstract block, its witness and both
// predictions for the witness.
func ExampleTable() {
	m, _ := machine.Lookup(machine.ZenPlusLikeName)
	forms, _ := anica.MachineForms(m)
	d, _ := anica.NewDomain(forms, anica.DefaultEditDistance)
	slow := *m
	slow.Name = "slow vpmullw"
	slow.Mapping = m.Mapping.Clone()
	for _, f := range forms {
		if f.Mnemonic == "vpmullw" {
			_ = slow.Mapping.SetUsage(f.Key(), "24*p0")
		}
	}
	a, _ := sim.New(m, sim.Options{})
	b, _ := sim.New(&slow, sim.Options{})
	c, _ := anica.NewCampaign(d, []*anica.Cache{anica.NewCache(a), anica.NewCache(b)}, anica.Config{Seed: 1, Samples: 30})
	if err := c.Run(context.Background(), anica.Budget{Blocks: 100}); err != nil {
		fmt.Println(err)
		return
	}
	ds := c.Filter(c.Discoveries)
	anica.Rank(ds)
	fmt.Print(anica.Table(ds, []string{"zenplus-like", "slow vpmullw"}))
	// Output:
	// #  abstract block          witness                    zenplus-like  slow vpmullw
	// 1  i1: mnemonic vpmullw+2  vpmullw ymm11, ymm3, ymm9  2.00          24.00
}
