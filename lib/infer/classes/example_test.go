package classes_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/classes"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Six forms of a two-port machine fall into three classes; MOV costs no
// port and is left to the front end.
func Example() {
	m := portmap.MustMapping("tiny", "p0", "p1")
	m.MustSetUsage("ADD", "1*p01").MustSetUsage("SUB", "1*p01").
		MustSetUsage("MUL", "1*p0").MustSetUsage("IMUL", "1*p0").
		MustSetUsage("SHL", "1*p1")
	if err := m.Set("MOV"); err != nil {
		panic(err)
	}
	res, err := infer.Infer(context.Background(), infer.Problem{Oracle: oracle.Simulate(m, 0, 1), Instructions: m.Instructions()}, classes.New(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := res.Report.(*classes.Report)
	for _, c := range rep.Classes {
		fmt.Println(c.Representative, c.Members)
	}
	for _, p := range rep.PortLess {
		fmt.Println("no port:", p.Form)
	}
	fmt.Printf("%d of %d forms mapped\n", rep.Mapped, rep.Forms)
	// Output:
	// ADD [SUB]
	// MUL [IMUL]
	// SHL []
	// no port: MOV
	// 6 of 6 forms mapped
}
