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
		`words := strings.Fields("add mul store add")
func count(w string) int {
	n := 0
	for _, x := range words {
		if x == w {
			n++
		}
	}
	return n
}
fmt.Println("words:", len(words))
count("add")`,
		// Multiple results are shown as a tuple.
		"import \"strconv\"\nstrconv.Atoi(\"x\")",
		// Errors carry the cell's line numbers; the session lives on.
		"x := 1\ny := x + )",
		`count("mul") + count("nop")`,
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
	// stdout: words: 4
	// [1] 2
	// [2] (0, error: strconv.Atoi: parsing "x": invalid syntax)
	// [3] SyntaxError: 2:10: expected operand, found ')'
	// [4] 1
}
