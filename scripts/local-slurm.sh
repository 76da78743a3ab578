#!/usr/bin/env bash
# Runs a throw-away, single-node Slurm cluster on this Debian 12 machine, for the tests of the
# sharded runs (job arrays, srun, requeue). No systemd needed: the daemons are started directly.
#
#   local-slurm.sh start    (root) install what is missing, start munged, slurmctld and slurmd;
#                           prints "slurm ready". Safe to repeat: when our daemons are already up
#                           and the node is usable it only checks and returns.
#   local-slurm.sh stop     (root) cancel the jobs, stop the daemons this script started (found by
#                           the pid files in the runtime dir, nothing else); prints "slurm stopped".
#                           /etc/slurm/slurm.conf and the packages stay.
#   local-slurm.sh status   prints "slurm ready" (exit 0) or one line saying why not (exit 1).
#
# Exit codes: 0 ok, 1 failed, 2 usage error. When the packages cannot be installed (no apt-get,
# no network, ...) start prints one line beginning with "local-slurm: cannot install" and exits 1,
# so that a test can report itself as skipped.
#
# The cluster: node "localhost" (address 127.0.0.1) in partition "debug" (the default);
# proctrack/linuxproc and task/none, so no cgroups; select/cons_tres with CR_Core; no accounting
# (sacct does not work: poll with squeue / scontrol -o show job, which keep finished jobs for
# MinJobAge=300 s); MailProg=/bin/true. Jobs run as the user who submits them. State, spool, logs
# and pid files live in the runtime dir; job ids keep counting up across restarts.
# /etc/slurm/slurm.conf is written by this script and carries a marker line; a slurm.conf without
# that marker is never overwritten.
#
# Knobs (environment):
#   SHOGI_ARENA_SLURM_DIR=/tmp/shogi-arena-slurm  runtime dir (state, spool, logs, pid files)
#   SHOGI_ARENA_SLURM_CPUS=8     CPUs the node advertises. More than the machine has on purpose:
#                                on a 2-core machine four 1-CPU shards + a coordinator + a merge
#                                job must all fit at once (the jobs share the real cores).
#   SHOGI_ARENA_SLURM_TIMEOUT=60 seconds start waits for the node to become idle
#   SHOGI_ARENA_SLURM_REQUEUE_DELAY=10  seconds (at least 5) before a requeued job may start again
#                                (scontrol requeue); Slurm's default is 120. It is
#                                AuthInfo=cred_expire, so it is also how long a job-launch
#                                credential stays valid: keep it above a few seconds.
#   SHOGI_ARENA_SLURM_PURGE=1    stop also deletes the runtime dir
# A start that finds the cluster up changes nothing: to apply new knobs, stop and start.
# "slurm ready" / "slurm stopped" go to stdout; every other message goes to stderr.
#
# Host name: with CommunicationParameters=NoInAddrAny,NoCtldInAddrAny (loopback only) every daemon
# and srun binds to the address the host name resolves to. So the name must resolve to 127.0.0.1:
# if it does not resolve at all, "127.0.0.1 <name>" is added to /etc/hosts; if it resolves to
# something else (Debian's usual 127.0.1.1: srun would then hang for minutes, because slurmd
# calls it back on 127.0.0.1), those parameters are left out and the daemons listen on all
# interfaces (munge still authenticates every message), with a warning.
# Always run srun under timeout(1) in tests.
set -euo pipefail

runtime_dir=${SHOGI_ARENA_SLURM_DIR:-/tmp/shogi-arena-slurm}
cpus=${SHOGI_ARENA_SLURM_CPUS:-8}
timeout_s=${SHOGI_ARENA_SLURM_TIMEOUT:-60}
requeue_delay=${SHOGI_ARENA_SLURM_REQUEUE_DELAY:-10}
conf=/etc/slurm/slurm.conf
marker="# shogi-arena local-slurm.sh: generated file, rewritten on every cold start"
ports=(6817 6818)

say() { echo "local-slurm: $*" >&2; }
fail() { say "$*"; exit 1; }
usage() {
  echo "usage: bash scripts/local-slurm.sh start|stop|status" >&2
  exit 2
}
need_root() { [ "$(id -u)" = 0 ] || fail "'$1' must run as root"; }

# True if the pid in file $1 is a live (not zombie) process whose name is $2.
ours_alive() {
  local pid state
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 1
  state=$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  [ -n "$state" ] && [ "$state" != Z ]
}

# Short node state of "localhost" as sinfo prints it (idle, mix, alloc, idle*, down*, ...).
node_state() { timeout 15 sinfo -h -N -n localhost -o %t 2>/dev/null | head -n1 || true; }
usable_state() { case "$1" in idle | mix | alloc | comp) return 0 ;; *) return 1 ;; esac; }

# Lines of the TCP listeners on our ports ("" if none). Uses ss when there, else /proc/net/tcp*.
listeners() {
  if command -v ss >/dev/null; then
    ss -Hltnp '( sport = :6817 or sport = :6818 )' 2>/dev/null || true
  else
    # state 0A = LISTEN; 1AA1/1AA2 = 6817/6818
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4 == "0A" && $2 ~ /:1AA[12]$/' || true
  fi
}

wait_ports_free() { # seconds
  local end=$((SECONDS + $1))
  while [ -n "$(listeners)" ]; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.2
  done
}

# Stops the process of pid file $1 if it is a live $2: TERM, then KILL after 10 s.
stop_ours() {
  local pidfile=$1 name=$2 pid i
  if ours_alive "$pidfile" "$name"; then
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      ours_alive "$pidfile" "$name" || break
      sleep 0.1
    done
    if ours_alive "$pidfile" "$name"; then
      say "$name ($pid) ignored SIGTERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    fi
  fi
  rm -f "$pidfile"
}

munge_works() { command -v munge >/dev/null && munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

show_logs() {
  local f
  for f in "$runtime_dir/log/slurmctld.log" "$runtime_dir/log/slurmd.log"; do
    [ -s "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -n 15 "$f" >&2
  done
}

# ------------------------------------------------------------------------------------------ start
install_packages() {
  local missing=() log="$runtime_dir/apt.log"
  command -v slurmctld >/dev/null || missing+=(slurmctld)
  command -v slurmd >/dev/null || missing+=(slurmd)
  command -v sbatch >/dev/null && command -v sinfo >/dev/null && command -v srun >/dev/null ||
    missing+=(slurm-client)
  command -v munged >/dev/null && command -v mungekey >/dev/null || missing+=(munge)
  command -v ss >/dev/null || missing+=(iproute2)
  [ ${#missing[@]} -gt 0 ] || return 0

  command -v apt-get >/dev/null || fail "cannot install ${missing[*]}: apt-get not found"
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  local apt=(apt-get -y -q -o DPkg::Lock::Timeout=120)
  if ! "${apt[@]}" install --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    # Usually the package lists are missing or stale: refresh them once and try again.
    "${apt[@]}" update >>"$log" 2>&1 || true
    "${apt[@]}" install --no-install-recommends "${missing[@]}" >>"$log" 2>&1 ||
      fail "cannot install ${missing[*]}: apt-get failed (see $log)"
  fi
  # Where systemd runs, the packages may have started their own units (with Debian's config).
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    systemctl stop slurmctld slurmd >/dev/null 2>&1 || true
  fi
}

# Prints the CommunicationParameters line for slurm.conf (maybe commented out).
check_host_name() {
  local host addr
  host=$(uname -n)
  [ -n "$host" ] || fail "the host name is empty"
  addr=$(getent ahostsv4 "$host" | awk 'NR == 1 {print $1}' || true)
  if [ -z "$addr" ]; then
    say "host name '$host' does not resolve; adding '127.0.0.1 $host' to /etc/hosts"
    if [ -s /etc/hosts ] && [ -n "$(tail -c1 /etc/hosts)" ]; then echo >>/etc/hosts; fi
    echo "127.0.0.1 $host # added by shogi-arena scripts/local-slurm.sh" >>/etc/hosts ||
      fail "cannot append to /etc/hosts"
    addr=$(getent ahostsv4 "$host" | awk 'NR == 1 {print $1}' || true)
    [ "$addr" = 127.0.0.1 ] || fail "host name '$host' still does not resolve to 127.0.0.1 (got '${addr:-nothing}')"
  fi
  if [ "$addr" = 127.0.0.1 ]; then
    echo "CommunicationParameters=NoInAddrAny,NoCtldInAddrAny"
  else
    say "WARNING: host name '$host' resolves to $addr, not 127.0.0.1: slurmctld and slurmd will" \
      "listen on all interfaces (ports ${ports[*]}); map '$host' to 127.0.0.1 in /etc/hosts to avoid it"
    echo "# CommunicationParameters=NoInAddrAny,NoCtldInAddrAny left out: '$host' resolves to $addr"
  fi
}

start_munge() {
  local i key=/etc/munge/munge.key
  if munge_works; then return 0; fi # a working munged (ours or the system's): use it
  stop_ours "$runtime_dir/munged.pid" munged
  if [ ! -s "$key" ]; then
    say "creating $key"
    mkdir -p /etc/munge
    mungekey --create --keyfile="$key" --force >/dev/null 2>&1 || fail "mungekey could not create $key"
  fi
  chown munge:munge /etc/munge "$key"
  chmod 0700 /etc/munge
  chmod 0400 "$key"
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  chmod 0755 /run/munge
  rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock /run/munge/munged.pid
  runuser -u munge -- "$(command -v munged)" || fail "munged did not start (see /var/log/munge/munged.log)"
  for ((i = 0; i < 50; i++)); do
    munge_works && break
    sleep 0.1
  done
  munge_works || fail "munge does not work (see /var/log/munge/munged.log)"
  # Remember that this munged is ours, so that stop stops it (and only it).
  cp /run/munge/munged.pid "$runtime_dir/munged.pid" 2>/dev/null ||
    pgrep -x -u munge munged | head -n1 >"$runtime_dir/munged.pid" || true
}

write_conf() { # communication-parameters line
  local mem_mb margin
  mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
  margin=$((mem_mb / 20 > 512 ? mem_mb / 20 : 512))
  mem_mb=$((mem_mb > 2 * margin ? mem_mb - margin : (mem_mb > 1 ? mem_mb / 2 : 1)))
  mkdir -p /etc/slurm "$runtime_dir/state" "$runtime_dir/spool" "$runtime_dir/log"
  cat >"$conf.tmp.$$" <<EOF
$marker
# Single-node test cluster; see scripts/local-slurm.sh in Shogi Arena. Runtime dir: $runtime_dir
ClusterName=shogi-arena-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
$1
AuthType=auth/munge
# cred_expire + 1 s is also the delay before a requeued job may start again (default 120 s).
AuthInfo=cred_expire=$requeue_delay
SlurmUser=root
SlurmdUser=root
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# The node may advertise more CPUs than the machine has (SHOGI_ARENA_SLURM_CPUS).
SlurmdParameters=config_overrides
ReturnToService=2
JobRequeue=1
MailProg=/bin/true
MinJobAge=300
# Main scheduling pass every second (default 60 s): a requeued job, or one whose begin time has
# come, starts within a second instead of a minute. Cheap on a single node.
SchedulerParameters=sched_interval=1
KillWait=10
MaxArraySize=10001
MaxJobCount=50000
StateSaveLocation=$runtime_dir/state
SlurmdSpoolDir=$runtime_dir/spool
SlurmctldPidFile=$runtime_dir/slurmctld.pid
SlurmdPidFile=$runtime_dir/slurmd.pid
SlurmctldLogFile=$runtime_dir/log/slurmctld.log
SlurmdLogFile=$runtime_dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  chmod 0644 "$conf.tmp.$$"
  mv -f "$conf.tmp.$$" "$conf"
}

wait_until_idle() {
  local end=$((SECONDS + timeout_s)) state
  while :; do
    state=$(node_state)
    usable_state "$state" && return 0
    if [ $SECONDS -ge $end ]; then
      show_logs
      fail "node localhost is '${state:-unknown}' after ${timeout_s}s, not idle (logs in $runtime_dir/log)"
    fi
    case "$state" in # a node left drained or down by an earlier run: give it back
      drain* | drng* | down* | fail* | inval*)
        timeout 10 scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true ;;
    esac
    sleep 0.3
  done
}

cmd_start() {
  need_root start
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || fail "SHOGI_ARENA_SLURM_CPUS must be a positive integer, not '$cpus'"
  [[ $timeout_s =~ ^[0-9]+$ ]] || fail "SHOGI_ARENA_SLURM_TIMEOUT must be a number of seconds, not '$timeout_s'"
  if ! [[ $requeue_delay =~ ^[0-9]+$ ]] || [ "$requeue_delay" -lt 5 ]; then
    fail "SHOGI_ARENA_SLURM_REQUEUE_DELAY must be a number of seconds >= 5, not '$requeue_delay'"
  fi
  # Fast path: already up.
  if ours_alive "$runtime_dir/slurmctld.pid" slurmctld && ours_alive "$runtime_dir/slurmd.pid" slurmd &&
    usable_state "$(node_state)"; then
    echo "slurm ready"
    return 0
  fi
  if [ -f "$conf" ] && ! grep -qxF "$marker" "$conf"; then
    fail "$conf exists and was not written by this script; move it away to use local-slurm.sh"
  fi
  mkdir -p "$runtime_dir"
  # Leftovers of an earlier start (ours only) go; they are restarted below.
  stop_ours "$runtime_dir/slurmd.pid" slurmd
  stop_ours "$runtime_dir/slurmctld.pid" slurmctld

  install_packages
  local busy
  busy=$(listeners)
  [ -z "$busy" ] || fail "port ${ports[0]} or ${ports[1]} is taken by a process this script did not start: $(echo "$busy" | tr -s ' \n' ' ')"

  local comm_line
  comm_line=$(check_host_name)
  start_munge
  write_conf "$comm_line"

  local i
  slurmctld -i || { show_logs; fail "slurmctld did not start"; }
  for ((i = 0; i < timeout_s * 5; i++)); do
    case "$(timeout 10 scontrol ping 2>/dev/null || true)" in *UP*) break ;; esac
    ours_alive "$runtime_dir/slurmctld.pid" slurmctld || [ $i -lt 10 ] ||
      { show_logs; fail "slurmctld exited"; }
    sleep 0.2
  done
  case "$(timeout 10 scontrol ping 2>/dev/null || true)" in
    *UP*) ;;
    *) show_logs; fail "slurmctld does not answer" ;;
  esac
  slurmd -N localhost || { show_logs; fail "slurmd did not start"; }
  wait_until_idle
  echo "slurm ready"
}

# ------------------------------------------------------------------------------------------- stop
cmd_stop() {
  need_root stop
  local i
  if ours_alive "$runtime_dir/slurmctld.pid" slurmctld; then
    # Cancel everything first, so that no job step outlives slurmd.
    timeout 15 scancel --partition=debug >/dev/null 2>&1 || true
    for ((i = 0; i < 100; i++)); do
      [ -z "$(timeout 10 squeue -h -t PD,R,CG,S,CF -o %i 2>/dev/null || true)" ] && break
      sleep 0.2
    done
  fi
  stop_ours "$runtime_dir/slurmd.pid" slurmd
  stop_ours "$runtime_dir/slurmctld.pid" slurmctld
  stop_ours "$runtime_dir/munged.pid" munged # present only if start started munged
  wait_ports_free 15 || fail "port ${ports[0]} or ${ports[1]} is still taken: $(listeners | tr -s ' \n' ' ')"
  if [ "${SHOGI_ARENA_SLURM_PURGE:-0}" = 1 ]; then rm -rf "$runtime_dir"; fi
  echo "slurm stopped"
}

# ----------------------------------------------------------------------------------------- status
cmd_status() {
  command -v sinfo >/dev/null || fail "Slurm is not installed (sinfo not found)"
  case "$(timeout 10 scontrol ping 2>/dev/null || true)" in
    *UP*) ;;
    *) fail "slurmctld is not running or does not answer" ;;
  esac
  local state
  state=$(node_state)
  usable_state "$state" || fail "node localhost is '${state:-not known to slurmctld}', not idle/mixed/allocated"
  echo "slurm ready"
}

[ $# -eq 1 ] || usage
case "$1" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) usage ;;
esac
