package uopsinfo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/uopsinfo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// The machine of thesis Example 6.2 (Fig. 6.1), asked through simulated
// per-port counters. mul, ld and add have one µop each and block {p2},
// {p3} and {p1,p2}; fma is found with them. The copies are the thesis's
// |Q|·µops, and every blocking instruction is tried, as Algorithm 6.1 is
// printed: the counts on the blocked ports are 4, 3 and 9.
func Example() {
	truth := portmap.MustMapping("fig6.1", "p1", "p2", "p3")
	truth.MustSetUsage("add", "1*[p1,p2]").MustSetUsage("fma", "2*[p1,p2]+1*[p2]")
	truth.MustSetUsage("mul", "1*[p2]").MustSetUsage("ld", "1*[p3]")

	method := &uopsinfo.Method{
		Copies:     func(ports int, _ float64, uops int) int { return ports * uops },
		Exhaustive: true,
	}
	p := infer.Problem{
		Oracle:       oracle.SimulateWithPortCounters(truth, 0, 1),
		Instructions: truth.Instructions(),
		Ports:        truth.NumPorts(),
		PortNames:    truth.Ports(),
	}
	res, err := infer.Infer(context.Background(), p, method, nil)
	if err != nil {
		log.Fatal(err)
	}
	report := res.Report.(*uopsinfo.Report)
	fmt.Print(report.Explain("fma"))
	fmt.Println("fma:", res.Mapping.Usage("fma"))
	// Output:
	// fma: alone 1.5 cycles, 3 µops on ports [p1 p2]
	//   ports        blocking                 copies  on ports subsets  surplus  µops
	//   [p2]         mul                           3         4       0        1     1
	//   [p3]         ld                            3         3       0        0     0
	//   [p1 p2]      add                           6         9       1        2     2
	//   resolved: 1*[p2]+2*[p1 p2]
	// fma: 1*p2+2*p12
}
