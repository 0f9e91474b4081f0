package main

import (
	"fmt"
	"os"

	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/formulations/mrcp"
	ij "github.com/mrbound/mrbound/instances/jlassi"
	im "github.com/mrbound/mrbound/instances/mrcp"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/mps"
)

func write(name string, m *model.Model) {
	f, _ := os.Create("/tmp/mipmodels/" + name + ".mps")
	if err := mps.Write(f, m); err != nil {
		panic(err)
	}
	f.Close()
	st := m.Stats()
	fmt.Println(name, st.Rows, st.Cols, st.Nonzeros)
}

func main() {
	os.MkdirAll("/tmp/mipmodels", 0o755)
	for _, s := range []int{3, 5} {
		for seed := int64(1); seed <= 3; seed++ {
			sc, err := ij.Generate(s, seed)
			if err != nil {
				panic(err)
			}
			in, err := ij.Compile(sc.Name, sc)
			if err != nil {
				panic(err)
			}
			m, err := jlassi.Build(in, jlassi.BuildOptions{T: ij.Table5Horizon[s]})
			if err != nil {
				panic(err)
			}
			write(fmt.Sprintf("jlassi_s%d_seed%d", s, seed), m.Model)
		}
	}
	in, err := im.Generate(im.GenOptions{Workload: im.Mixed, Jobs: 10, Lambda: 0.02, Seed: 1, TimeUnit: 10})
	if err != nil {
		panic(err)
	}
	b, err := mrcp.Build(in, mrcp.Options{})
	if err != nil {
		panic(err)
	}
	write("mrcp_j10_seed1", b.Model)
}
