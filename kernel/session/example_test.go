package session_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
)

// printOutput prints what cells write; it is a session.Output for examples.
type printOutput struct{}

func (printOutput) Stream(name, text string) { fmt.Print(name, ": ", text) }
func (printOutput) Display(b display.Bundle, id string, update bool) {
	fmt.Println("display:", b.PlainText())
}
func (printOutput) Input(string, bool) (string, error) { return "", fmt.Errorf("no input") }
func (printOutput) Clear(bool)                         {}

func ExampleSession_Execute() {
	s, err := session.New(session.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	cells := []string{
		// Declarations and statements mix; the last expression is the value.
		`m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
func cycles(counts map[string]int) float64 {
	e, _ := portmap.ExperimentOf(counts)
	r, _ := throughput.Bottleneck(m, e)
	return r.Cycles
}
fmt.Println("mapped:", m.Instructions())
cycles(map[string]int{"add": 2, "mul": 1, "store": 1})`,
		// Multiple results are shown as a tuple.
		`throughput.Bottleneck(m, portmap.NewExperiment("nop"))`,
		// Errors carry the cell's line numbers; the session lives on.
		"x := 1\ny := x + )",
		`cycles(map[string]int{"mul": 4})`,
	}
	for _, code := range cells {
		r := s.Execute(context.Background(), code, printOutput{})
		switch {
		case r.Err != nil:
			fmt.Printf("[%d] %s: %s\n", r.Count, r.Err.Name, r.Err.Value)
		case r.Value != nil:
			fmt.Printf("[%d] %s\n", r.Count, r.Value.PlainText())
		}
	}
	// Output:
	// stdout: mapped: [mul add store]
	// [1] 1.5
	// [2] (0 cycles (0 µops on the 0 bottleneck ports {}; bound: ports), IPC 0, error: portmap: experiment {nop ↦ 1}: unknown instruction "nop" (not in architecture "fig3.1"))
	// [3] SyntaxError: 2:10: expected operand, found ')'
	// [4] 4
}
