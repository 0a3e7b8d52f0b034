package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	designs "github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/source"
)

// slurmTools are the programs TestSlurmCampaign runs (Debian packages
// slurm-wlm and munge).
var slurmTools = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo"}

// TestSlurmCampaign starts a single-node Slurm on this machine (munged,
// slurmctld and slurmd, with a configuration of its own in a temporary
// directory), submits a 4-shard campaign with slurm/submit — a job array
// of portlab measure -shard i/4 and a merge job that waits for it
// (afterok) — requeues a task midway, and checks that the requeued task
// resumed its shard and that the merged campaign holds the whole design
// once. It needs root and the Slurm tools; without them it is skipped,
// except in CI (CI=true), where it fails.
func TestSlurmCampaign(t *testing.T) {
	ci := os.Getenv("CI") == "true"
	missing := func(format string, args ...any) {
		t.Helper()
		if ci {
			t.Fatalf(format+" (CI installs slurm-wlm and munge and runs as root)", args...)
		}
		t.Skipf(format, args...)
	}
	if testing.Short() && !ci {
		t.Skip("starts a Slurm cluster (about a minute)")
	}
	for _, tool := range slurmTools {
		if _, err := exec.LookPath(tool); err != nil {
			missing("%s not found: install the Debian packages slurm-wlm and munge", tool)
		}
	}
	if os.Geteuid() != 0 {
		missing("slurmd runs jobs as root here: the test needs root")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Abs(filepath.Join("..", "..", "slurm"))
	if err != nil {
		t.Fatal(err)
	}
	c := startSlurm(t)

	const insns, design, shards = "curated:12", "singletons,pairs", 4
	run := filepath.Join(c.dir, "run")
	args := []string{"-shards", fmt.Sprint(shards), "-insns", insns, "-design", design, "-dir", run, "-portlab", exe}
	if nodeCPUs() < 2 {
		args = append(args, "--", "--cpus-per-task=1") // a task asks for two by default
	}
	cmd := exec.Command(filepath.Join(scripts, "submit"), args...)
	cmd.Env = append(c.env(), envRunMain+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("slurm/submit: %v\n%s", err, out)
	}
	var arrayJob, mergeJob string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "measure" {
			arrayJob = f[1]
		} else if len(f) == 2 && f[0] == "merge" {
			mergeJob = f[1]
		}
	}
	if arrayJob == "" || mergeJob == "" {
		t.Fatalf("slurm/submit printed no job ids:\n%s", out)
	}
	start := time.Now()

	// Requeue task 1 once its shard holds a measurement: Slurm stops it
	// (SIGTERM) and runs it again, and it resumes its shard.
	shard1 := filepath.Join(run, fmt.Sprintf("shard-1-of-%d.jsonl", shards))
	waitFor(t, c, 90*time.Second, "task 1 to record a measurement", func() bool {
		recs, _, err := portmap.ReadCampaignHeaders(shard1)
		return err == nil && len(recs) > 0
	})
	c.run(t, "scontrol", "requeue", arrayJob+"_1")
	// A requeued job waits before it may start again; let it start now.
	waitFor(t, c, 20*time.Second, "task 1 to be pending again", func() bool {
		return strings.Contains(c.output("squeue", "-h", "-t", "PD", "-o", "%i"), arrayJob+"_1")
	})
	c.run(t, "scontrol", "update", "jobid="+arrayJob+"_1", "StartTime=now")

	waitFor(t, c, 4*time.Minute, "the merge job to finish", func() bool {
		state := c.output("scontrol", "show", "job", "-o", mergeJob)
		return strings.Contains(state, "JobState=COMPLETED") || strings.Contains(state, "JobState=FAILED") ||
			strings.Contains(state, "JobState=CANCELLED")
	})
	t.Logf("4 shards measured and merged through Slurm in %.1f s", time.Since(start).Seconds())
	logs, _ := filepath.Glob(filepath.Join(run, "*.log"))
	var all bytes.Buffer
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		fmt.Fprintf(&all, "== %s\n%s\n", filepath.Base(l), data)
	}
	if state := c.output("scontrol", "show", "job", "-o", mergeJob); !strings.Contains(state, "JobState=COMPLETED") {
		t.Fatalf("merge job: %s\n%s", state, all.String())
	}

	// The requeued task started twice and the second start resumed.
	log1, _ := os.ReadFile(filepath.Join(run, fmt.Sprintf("measure-%s_1.log", arrayJob)))
	if first, _, ok := strings.Cut(string(log1), "start 1 at"); ok && !strings.Contains(string(log1), "DUE TO JOB REQUEUE") &&
		strings.Contains(first, "measured (0 from earlier runs)") {
		// On a fast or idle host the task can finish its shard between
		// its first measurement and the requeue: then nothing was
		// stopped, and there is no resume to check.
		t.Skipf("task 1 finished its shard before the requeue reached it; the resume was not exercised:\n%s", log1)
	}
	if !strings.Contains(string(log1), "start 1 at") || !strings.Contains(string(log1), "DUE TO JOB REQUEUE") {
		t.Errorf("task 1 was not requeued:\n%s", log1)
	}
	var resumed int
	for _, line := range strings.Split(string(log1), "\n") {
		if i := strings.Index(line, "measured ("); i >= 0 {
			fmt.Sscanf(line[i:], "measured (%d from earlier runs)", &resumed)
		}
	}
	if resumed == 0 {
		t.Errorf("the requeued task measured its shard again instead of resuming it:\n%s", log1)
	}
	if _, headers, err := portmap.ReadCampaignHeaders(shard1); err != nil || len(headers) != 1 {
		t.Errorf("requeued shard: %d headers, %v; want the one it began with", len(headers), err)
	}

	// The merged campaign is the whole design, each experiment once.
	forms, err := source.ParseForms(insns)
	if err != nil {
		t.Fatal(err)
	}
	names, err := forms.Load()
	if err != nil {
		t.Fatal(err)
	}
	var want []portmap.Experiment
	for _, d := range strings.Split(design, ",") {
		exps, err := designs.Build(context.Background(), d, names, nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, exps...)
	}
	merged := filepath.Join(run, "campaign.jsonl")
	recs, headers, err := portmap.ReadCampaignHeaders(merged)
	if err != nil {
		t.Fatalf("%v\n%s", err, all.String())
	}
	var got []portmap.Experiment
	for _, r := range recs {
		got = append(got, r.Experiment())
	}
	if len(headers) != 1 || headers[0].Shard == nil || headers[0].Shard.Digest != portmap.PlanDigest(want) ||
		len(recs) != distinct(want) || portmap.PlanDigest(got) != portmap.PlanDigest(want) {
		t.Errorf("merged campaign: %d records, headers %+v; want the %d experiments of %s over %s\n%s",
			len(recs), headers, distinct(want), design, insns, all.String())
	}
	if !strings.Contains(all.String(), fmt.Sprintf("%d of %d shards", shards, shards)) {
		t.Errorf("the merge job did not report %d of %d shards:\n%s", shards, shards, all.String())
	}
}

// slurmCluster is a single-node Slurm started by a test.
type slurmCluster struct {
	dir, conf string
}

// env returns the environment for the Slurm client commands.
func (c *slurmCluster) env() []string { return append(os.Environ(), "SLURM_CONF="+c.conf) }

// output runs a Slurm command and returns its output ("" on failure).
func (c *slurmCluster) output(name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env()
	out, _ := cmd.Output()
	return string(out)
}

// run runs a Slurm command that must succeed.
func (c *slurmCluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = c.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// waitFor polls cond every half second until it holds, failing the test
// with the daemons' logs after timeout.
func waitFor(t *testing.T, c *slurmCluster, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if cond() {
			return
		}
	}
	var logs strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log"} {
		data, _ := os.ReadFile(filepath.Join(c.dir, f))
		fmt.Fprintf(&logs, "== %s (end)\n%s\n", f, tail(string(data), 3000))
	}
	fmt.Fprintf(&logs, "== squeue\n%s", c.output("squeue"))
	t.Fatalf("waited %s for %s\n%s", timeout, what, logs.String())
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// freePort returns a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startSlurm starts munged, slurmctld and slurmd in the foreground with a
// configuration of their own — a cluster of this machine alone, on free
// ports, with a fresh munge key — and stops them when the test ends.
func startSlurm(t *testing.T) *slurmCluster {
	dir := t.TempDir()
	// munged wants its socket's directory open to all.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, d := range []string{"state", "spool"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	c := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	conf := fmt.Sprintf(`ClusterName=portlabtest
SlurmctldHost=%[2]s(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[1]s/munge.sock
CredType=cred/munge
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/slurmd.pid
SlurmctldLogFile=%[1]s/slurmctld.log
SlurmdLogFile=%[1]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
JobRequeue=1
MpiDefault=none
KillWait=5
MinJobAge=600
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=%[2]s NodeAddr=127.0.0.1 CPUs=%[5]d State=UNKNOWN
PartitionName=test Nodes=%[2]s Default=YES MaxTime=INFINITE State=UP
`, dir, host, freePort(t), freePort(t), nodeCPUs())
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	daemons := []*exec.Cmd{
		exec.Command("munged", "--foreground", "--force", "--socket="+filepath.Join(dir, "munge.sock"),
			"--key-file="+filepath.Join(dir, "munge.key"), "--log-file="+filepath.Join(dir, "munged.log"),
			"--pid-file="+filepath.Join(dir, "munged.pid"), "--seed-file="+filepath.Join(dir, "munged.seed")),
		exec.Command("slurmctld", "-D", "-i", "-f", c.conf),
		exec.Command("slurmd", "-D", "-f", c.conf),
	}
	for i, d := range daemons {
		d.Env = c.env()
		var errOut bytes.Buffer
		d.Stdout, d.Stderr = &errOut, &errOut
		if err := d.Start(); err != nil {
			t.Fatalf("%s: %v", d.Path, err)
		}
		t.Cleanup(func() {
			d.Process.Kill()
			d.Wait()
		})
		if i == 0 {
			waitFor(t, c, 10*time.Second, "munged's socket", func() bool {
				_, err := os.Stat(filepath.Join(dir, "munge.sock"))
				return err == nil
			})
		}
	}
	// Jobs go first (the daemons are killed after: cleanups run last
	// first), and their processes end before slurmd does.
	t.Cleanup(func() {
		c.output("scancel", "--full", "-u", "root")
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
			if strings.TrimSpace(c.output("squeue", "-h", "-t", "R,CG")) == "" {
				return
			}
		}
	})
	waitFor(t, c, 30*time.Second, "the node to be idle", func() bool {
		return strings.TrimSpace(c.output("sinfo", "-h", "-o", "%t")) == "idle"
	})
	return c
}

// nodeCPUs is the number of CPUs this process may run on, the node's
// CPUs in the test cluster.
func nodeCPUs() int {
	cpus, err := source.ParseCPUs("affinity")
	if err != nil || len(cpus) == 0 {
		return 1
	}
	return len(cpus)
}
