package jlassi_test

import (
	"fmt"

	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
)

// ExampleBuild builds the strong and published models of a generated
// three-job instance (type 1 jobs, a c3.2xlarge and an r3.xlarge, T = 4).
func ExampleBuild() {
	sc, _ := jlassiscenario.GenerateSpec(jlassiscenario.ScenarioSpec{Jobs: [3]int{3, 0, 0}, Machines: [3]int{1, 0, 1}, Blocks: 4, T: 4}, 1)
	in, _ := jlassiscenario.Compile(sc.Name, sc)
	for _, form := range []jlassi.Form{jlassi.Strong, jlassi.Published} {
		m, err := jlassi.Build(in, jlassi.BuildOptions{Form: form, T: 4})
		if err != nil {
			fmt.Println(err)
			return
		}
		st := m.Model.Stats()
		fmt.Printf("%-9s %d tasks, T = %d: %d rows, %d columns (%d binary), %d nonzeros\n",
			form, len(in.Tasks), m.T, st.Rows, st.Cols, st.Binary, st.Nonzeros)
	}
	// Output:
	// strong    15 tasks, T = 4: 303 rows, 235 columns (231 binary), 1596 nonzeros
	// published 15 tasks, T = 4: 866 rows, 397 columns (393 binary), 5610 nonzeros
}
