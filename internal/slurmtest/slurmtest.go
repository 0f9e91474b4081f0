package slurmtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cluster is a running one-node Slurm cluster.
type Cluster struct {
	// Dir holds the configuration, state, spool and logs.
	Dir string
	// Conf is the slurm.conf; commands find it through SLURM_CONF (Env).
	Conf string
	// CPUs is the node's CPU count.
	CPUs int
}

// startTimeout bounds the wait for the node to become idle.
const startTimeout = 60 * time.Second

// binaries are what the cluster needs from slurm-wlm and munge.
var binaries = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel"}

// Start starts a cluster for t and stops it when t ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("slurmtest: Slurm needs Linux, this is %s", runtime.GOOS)
	}
	paths := map[string]string{}
	for _, b := range binaries {
		p, err := lookPath(b)
		if err != nil {
			t.Skipf("slurmtest: %s not found: Debian's slurm-wlm and munge are not installed (make test installs them with apt-get when it can)", b)
		}
		paths[b] = p
	}
	if os.Geteuid() != 0 {
		t.Skip("slurmtest: slurmd must run as root to start jobs; run the test as root")
	}
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), CPUs: runtime.NumCPU()}
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// munged wants its key private and its socket directory not writable
	// by others.
	os.Chmod(filepath.Join(dir, "munge"), 0o711)
	key := make([]byte, 1024)
	rand.Read(key)
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "munge.socket")
	ports := freePorts(t, 2)
	if err := os.WriteFile(c.Conf, []byte(c.config(sock, ports)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.daemon(t, "munged", paths["munged"], "-F", "-f", "--socket="+sock, "--key-file="+keyFile,
		"--log-file="+filepath.Join(dir, "log", "munged.log"), "--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	waitFor(t, "munged's socket", 10*time.Second, func() bool { _, err := os.Stat(sock); return err == nil }, c.logTail)
	c.daemon(t, "slurmctld", paths["slurmctld"], "-D", "-i", "-f", c.Conf)
	c.daemon(t, "slurmd", paths["slurmd"], "-D", "-f", c.Conf, "-N", "localhost")
	waitFor(t, "the node to be idle", startTimeout, func() bool {
		out, err := c.Command(context.Background(), "sinfo", "-h", "-N", "-o", "%T").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	}, c.logTail)
	return c
}

func (c *Cluster) config(sock string, ports []int) string {
	mem := memoryMB() * 4 / 5 // slurmd drains a node that claims more than it has
	d := c.Dir
	return fmt.Sprintf(`# A one-node cluster for mrbound's tests (internal/slurmtest).
ClusterName=mrboundtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
AuthInfo=socket=%s
CredType=cred/munge
StateSaveLocation=%s/state
SlurmdSpoolDir=%s/spool
SlurmctldPidFile=%s/slurmctld.pid
SlurmdPidFile=%s/slurmd.pid
SlurmctldLogFile=%s/log/slurmctld.log
SlurmdLogFile=%s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=300
NodeName=localhost CPUs=%d RealMemory=%d State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, ports[0], ports[1], sock, d, d, d, d, d, d, c.CPUs, mem)
}

// lookPath finds a binary in PATH or, for the daemons when PATH lacks the
// sbin directories (a non-login root shell), where Debian installs them.
func lookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if st, e := os.Stat(filepath.Join(dir, name)); e == nil && st.Mode()&0o111 != 0 {
			return filepath.Join(dir, name), nil
		}
	}
	return "", err
}

// Env is the environment for Slurm commands: this one plus SLURM_CONF.
func (c *Cluster) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.Conf)
}

// Command is a Slurm command against this cluster.
func (c *Cluster) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.Env()
	return cmd
}

// WaitJob waits until job has left the queue (every array task ended), at
// most timeout; it fails the test otherwise.
func (c *Cluster) WaitJob(t testing.TB, job string, timeout time.Duration) {
	t.Helper()
	waitFor(t, "job "+job+" to leave the queue", timeout, func() bool {
		out, err := c.Command(context.Background(), "squeue", "-h", "-j", job, "-o", "%i %T").CombinedOutput()
		// squeue reports an unknown job (one that finished long ago) as
		// an error; an empty listing means the same.
		return strings.TrimSpace(string(out)) == "" || (err != nil && bytes.Contains(out, []byte("Invalid job id")))
	}, c.logTail)
}

// daemon starts a foreground daemon, stopped (TERM, then KILL) when t ends.
func (c *Cluster) daemon(t testing.TB, name string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = c.Env()
	out, err := os.Create(filepath.Join(c.Dir, "log", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("slurmtest: starting %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); out.Close(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
}

// logTail is the end of every daemon's log, for failure messages.
func (c *Cluster) logTail() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(c.Dir, "log", "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "\n--- %s\n%s", filepath.Base(f), strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return b.String()
}

// pollEvery is how often waitFor looks.
const pollEvery = 250 * time.Millisecond

func waitFor(t testing.TB, what string, timeout time.Duration, ok func() bool, logs func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("slurmtest: timed out after %v waiting for %s; logs:%s", timeout, what, logs())
		}
		time.Sleep(pollEvery)
	}
}

// freePorts returns n TCP ports free on localhost just now.
func freePorts(t testing.TB, n int) []int {
	var ports []int
	var ls []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// memoryMB is the machine's memory from /proc/meminfo (4096 if unknown).
func memoryMB() int {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 4096
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.Atoi(fields[1]); err == nil {
				return kb / 1024
			}
		}
	}
	return 4096
}
