package workload

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/rumen"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

// benchJobs, benchMaps and benchReduces size the generated traces: 5,000
// jobs of 10 maps and 2 reduces (60,000 containers) on 200 hosts.
const (
	benchJobs    = 5000
	benchMaps    = 10
	benchReduces = 2
	benchHosts   = 200
)

// genSLS writes an SLS JSON job trace as SLS's own samples are laid out
// (indented, one object per job).
func genSLS(jobs int) []byte {
	var b bytes.Buffer
	for j := range jobs {
		start := int64(j) * 7000
		fmt.Fprintf(&b, "{\n  \"am.type\": \"mapreduce\",\n  \"job.start.ms\": %d,\n  \"job.end.ms\": %d,\n  \"job.queue.name\": \"sls_queue_%d\",\n  \"job.id\": \"job_%d\",\n  \"job.user\": \"default\",\n  \"job.tasks\": [", start, start+90000, j%3, j)
		for k := range benchMaps + benchReduces {
			typ, s, e := "map", start+1000+int64(k)*100, start+20000+int64(k)*100
			if k >= benchMaps {
				typ, s, e = "reduce", start+21000, start+60000
			}
			sep := ","
			if k == benchMaps+benchReduces-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "\n    {\n      \"container.host\": \"/default-rack/node%d\",\n      \"container.start.ms\": %d,\n      \"container.end.ms\": %d,\n      \"container.priority\": 20,\n      \"container.type\": \"%s\",\n      \"container.execution.type\": \"GUARANTEED\"\n    }%s", (j*7+k)%benchHosts, s, e, typ, sep)
		}
		b.WriteString("\n  ]\n}\n")
	}
	return b.Bytes()
}

// genRumen writes a Rumen trace whose attempts carry the fields of Hadoop's
// 2jobs2min sample (counters, 12-point progress splits), without the
// jobProperties map.
func genRumen(jobs int) []byte {
	var b bytes.Buffer
	splits := "[ 1481, 1481, 1481, 1481, 1481, 1481, 1169, 1064, 1064, 1173, 1197, 2485 ]"
	for j := range jobs {
		submit := int64(1371222054499) + int64(j)*7000
		fmt.Fprintf(&b, "{\n  \"priority\" : \"NORMAL\",\n  \"jobID\" : \"job_1_%d\",\n  \"user\" : \"jenkins\",\n  \"jobName\" : \"TeraSort\",\n  \"submitTime\" : %d,\n  \"finishTime\" : %d,\n  \"queue\" : \"sls_queue_1\",\n  \"outcome\" : \"SUCCESS\",\n  \"directDependantJobs\" : [ ],\n", j, submit, submit+90000)
		for kind, n := range []int{benchMaps, benchReduces} {
			fmt.Fprintf(&b, "  \"%s\" : [ ", [2]string{"mapTasks", "reduceTasks"}[kind])
			for k := range n {
				s, e := submit+1000+int64(k)*100, submit+20000+int64(k)*100
				if kind == 1 {
					s, e = submit+21000, submit+60000
				}
				if k > 0 {
					b.WriteString(", ")
				}
				host := fmt.Sprintf("/default-rack/a%d.smile.com", (j*7+k+kind*benchMaps)%benchHosts)
				fmt.Fprintf(&b, "{\n    \"startTime\" : %d,\n    \"taskID\" : \"task_1_%d_%d_%d\",\n    \"taskType\" : \"%s\",\n    \"finishTime\" : %d,\n    \"attempts\" : [ {\n      \"location\" : { \"layers\" : [ \"default-rack\", \"%s\" ] },\n      \"hostName\" : \"%s\",\n      \"startTime\" : %d,\n      \"result\" : \"SUCCESS\",\n      \"finishTime\" : %d,\n      \"attemptID\" : \"attempt_1_%d_%d_%d_0\",\n      \"clockSplits\" : %s,\n      \"cpuUsages\" : %s,\n      \"vmemKbytes\" : %s,\n      \"physMemKbytes\" : %s,\n      \"shuffleFinished\" : -1,\n      \"sortFinished\" : -1,\n      \"hdfsBytesRead\" : 82,\n      \"hdfsBytesWritten\" : 416666700,\n      \"fileBytesRead\" : 0,\n      \"fileBytesWritten\" : 72234,\n      \"mapInputRecords\" : 4166667,\n      \"mapOutputBytes\" : -1,\n      \"spilledRecords\" : 0,\n      \"resourceUsageMetrics\" : { \"cumulativeCpuUsage\" : 14300, \"virtualMemoryUsage\" : 1458266112, \"physicalMemoryUsage\" : 308215808, \"heapUsage\" : 745406464 }\n    } ],\n    \"preferredLocations\" : [ ],\n    \"taskStatus\" : \"SUCCESS\",\n    \"inputBytes\" : 82,\n    \"inputRecords\" : 4166667,\n    \"outputBytes\" : 72234,\n    \"outputRecords\" : 4166667\n  }",
					s, j, kind, k, [2]string{"MAP", "REDUCE"}[kind], e, host[len("/default-rack/"):], host, s, e, j, kind, k, splits, splits, splits, splits)
			}
			b.WriteString(" ],\n")
		}
		b.WriteString("  \"otherTasks\" : [ ]\n}\n")
	}
	return b.Bytes()
}

// TestGeneratedTraces: the benchmarks' traces (here of 300 jobs) read back
// with every job and container, and their records, placed on the hosts, pass
// the checker (what the benchmarks time is a correct read).
func TestGeneratedTraces(t *testing.T) {
	const jobs = 300
	for name, read := range map[string]func() (*trace.Trace, error){
		"sls":   func() (*trace.Trace, error) { return sls.ReadJobs(genSLS(jobs), "gen.json") },
		"rumen": func() (*trace.Trace, error) { return rumen.Read(genRumen(jobs), "gen.json") },
	} {
		tr, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Jobs) != jobs || len(tr.Recorded) != jobs*(benchMaps+benchReduces) || len(tr.Hosts) != benchHosts {
			t.Errorf("%s: %d jobs, %d containers, %d hosts", name, len(tr.Jobs), len(tr.Recorded), len(tr.Hosts))
		}
		w, rec, err := trace.Build(tr, trace.ClusterSpec{})
		if err != nil || rec.Result == nil || w.NumTasks() != jobs*(benchMaps+benchReduces) {
			t.Fatalf("%s: %v, %+v", name, err, rec)
		}
		if err := check.Verify(w, rec.Result); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// BenchmarkReadTraces: reading a generated SLS JSON and a Rumen trace of
// 5,000 jobs (60,000 containers) into the common form and building the
// workload and its record (the goal: under a second each).
func BenchmarkReadTraces(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
		read func([]byte) (*trace.Trace, error)
	}{
		{"sls", genSLS(benchJobs), func(d []byte) (*trace.Trace, error) { return sls.ReadJobs(d, "gen.json") }},
		{"rumen", genRumen(benchJobs), func(d []byte) (*trace.Trace, error) { return rumen.Read(d, "gen.json") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			cpu := cputime.Now()
			for b.Loop() {
				tr, err := c.read(c.data)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := trace.Build(tr, trace.ClusterSpec{}); err != nil {
					b.Fatal(err)
				}
			}
			cputime.ReportMS(b, cpu)
			b.ReportMetric(float64(len(c.data))/(1<<20), "MB")
		})
	}
}
