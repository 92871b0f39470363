#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0081-agent-tls-budget: the agent over TLS with basic auth (exporter-toolkit's web.config.yml:
# right password 200, wrong 401, plain HTTP on the TLS port fails); a site that fails to attach
# does not stop the other and is attached by the SIGHUP re-plan once its file exists; a hot
# site over --max-overhead is moved to sampling of its function, logged and shown in /metrics
# and /profile, its counted calls kept and frozen while samples of the function arrive.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd openssl
python3 -W ignore -c 'import crypt' 2>/dev/null || skip "needs python3's crypt module for a bcrypt hash"
cd "$TMP"
metric() { curl -sf "${CURL_TLS[@]}" "$1/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }
metric_is() { [ "$(metric "$1" "$2")" = "$3" ]; }
CURL_TLS=()

# TLS and a password.
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1 || fail "openssl"
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))')
cat > web.yml <<YML
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  scraper: '$hash'
YML
mkdir a
cp "$WL" a/copyload
PT=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PT" --web-config web.yml \
	2> tls.log &
pids+=($!)
URL=https://127.0.0.1:$PT
wait_for "the TLS agent" curl -sf --cacert cert.pem -u scraper:s3cret "$URL/metrics"
a/copyload copy=200:77 || fail workload
expect_eq "calls over TLS" "$(curl -sf --cacert cert.pem -u scraper:s3cret "$URL/metrics" |
	awk '/^copyprof_copy_length_bytes_count/ { print $NF }')" 77
expect_eq "wrong password" "$(curl -s -o /dev/null -w '%{http_code}' --cacert cert.pem -u scraper:nope "$URL/metrics")" 401
expect_eq "no password" "$(curl -s -o /dev/null -w '%{http_code}' --cacert cert.pem "$URL/metrics")" 401
curl -s -o /dev/null "http://127.0.0.1:$PT/metrics" && fail "plain HTTP on the TLS port answered"
grep -q "serving https://" tls.log || fail "no https in the log: $(cat tls.log)"
# Bad web configs are refused with the reason.
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_ca_file: ca.pem\n' > bad.yml
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$(free_port)" --web-config bad.yml
expect_err "cert_file and key_file only"
printf 'basic_auth_users:\n  u: plaintext\n' > bad.yml
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$(free_port)" --web-config bad.yml
expect_err "not a bcrypt hash"
printf 'basic_auth_users: {}\n---\ntls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n' > bad.yml
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$(free_port)" --web-config bad.yml
expect_err "more than one YAML document"

# A site whose file is missing fails alone; SIGHUP re-plans and attaches it once it exists.
mkdir b
cp "$WL" b/copyload
PR=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/b/copyload:wl_copy" --uprobe "$TMP/late/copyload:wl_copy" \
	--listen "127.0.0.1:$PR" --replan 0 2> replan.log &
pids+=($!)
R=127.0.0.1:$PR
wait_for "the re-plan agent" curl -sf "$R/metrics"
grep -q "1 of 2 site(s) attached" replan.log || fail "no '1 of 2': $(cat replan.log)"
expect_eq "planned (failed) sites" "$(metric "$R" 'copyprof_agent_sites{state="planned"}')" 1
mkdir late
cp "$WL" late/copyload
kill -HUP "${pids[1]}"
wait_for "the SIGHUP re-plan" metric_is "$R" 'copyprof_agent_sites{state="attached"}' 2
late/copyload copy=33:5 || fail workload
b/copyload copy=44:6 || fail workload
expect_eq "calls per site after the re-plan" "$(curl -sf "$R/profile" | jq -c '[.sites[] | .calls]')" "[6,5]"
expect_eq "re-plans" "$(metric "$R" copyprof_agent_replans)" 1

# The budget: a hot site pushes the agent over 0.05% of one CPU and is moved to sampling of its
# function: its counted calls freeze, samples of wl_copy arrive as a site of mechanism sample.
mkdir h
cp "$WL" h/copyload
PH=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/h/copyload:wl_copy" --uprobe "$TMP/h/copyload:wl_clear,len=arg1" \
	--listen "127.0.0.1:$PH" --max-overhead 0.05 2> budget.log &
pids+=($!)
H=127.0.0.1:$PH
wait_for "the budget agent" curl -sf "$H/metrics"
h/copyload clear=16:9 || fail workload
# Calls until the agent has moved wl_copy (each run is 2 million calls).
hot() { h/copyload copy=8:2000000 > /dev/null; metric_is "$H" 'copyprof_agent_sites{state="sampled"}' 1; }
wait_for "the budget to move the hot site to sampling" hot
grep -q "wl_copy|0 moved to sampling of its function.*over --max-overhead 0.05%" budget.log ||
	fail "no log line: $(cat budget.log)"
curl -sf "$H/metrics" > budget.om
grep -q '^copyprof_agent_site_sampled{site="0",symbol="wl_copy",mechanism="uprobe"} 1$' budget.om ||
	fail "no sampled-site series: $(grep site_sampled budget.om)"
expect_eq "sites detached" "$(awk '$1 == "copyprof_agent_sites{state=\"over_budget\"}" { print $2 }' budget.om)" 0
expect_eq "budget actions" "$(awk '$1 == "copyprof_agent_budget_actions" { print $2 }' budget.om)" 1
# Moved: its counted calls stay and no longer grow; the other site still counts exactly.
curl -sf "$H/profile" > b1.json
expect_eq "site 0 after the move" "$(jq -c '.sites[0] | [.mechanism, .symbol]' b1.json)" '["uprobe","wl_copy"]'
expect_eq "the sampled site" "$(jq -c '.sites[2] | [.mechanism, .symbol, .leaf, .family, .target]' b1.json)" \
	"[\"sample\",\"wl_copy\",\"wl_copy\",\"function\",\"$TMP/h/copyload\"]"
before=$(jq '.sites[0].calls' b1.json)
samples=$(jq '.sites[2].calls' b1.json)
h/copyload copy=8:1000 clear=16:4 || fail workload
expect_eq "the moved site's calls" "$(curl -sf "$H/profile" | jq '.sites[0].calls')" "$before"
expect_eq "the other site's calls" "$(curl -sf "$H/profile" | jq '.sites[1].calls')" 13
# Samples of wl_copy arrive once it runs again (however slow the machine: until one does).
more() { h/copyload copy=8:2000000 > /dev/null; [ "$(curl -sf "$H/profile" | jq '.sites[2].calls')" -gt "$samples" ]; }
wait_for "samples of the moved function" more
curl -sf "$H/profile" > b2.json
expect_eq "the moved site's calls, frozen" "$(jq '.sites[0].calls' b2.json)" "$before"
expect_eq "its samples in /metrics" \
	"$(curl -sf "$H/metrics" | awk '/^copyprof_copy_samples\{symbol="wl_copy",.*mechanism="sample",leaf="wl_copy",family="function"/ { print $NF }')" \
	"$(jq '.sites[2].calls' b2.json)"

# Scrapes are the agent's own cost, not its sites': scraped hard, an agent whose one site was
# called 13 times goes over a 0.01% budget by its own work, says so once, and keeps the site.
mkdir c
cp "$WL" c/copyload
PC=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/c/copyload:wl_copy" --listen "127.0.0.1:$PC" \
	--max-overhead 0.01 2> cheap.log &
pids+=($!)
C=127.0.0.1:$PC
wait_for "the scraped agent" curl -sf "$C/metrics"
c/copyload copy=8:13 || fail workload
scraped() { for _ in 1 2 3 4 5; do curl -sf "$C/metrics" > /dev/null; done; grep -q "its own work" cheap.log; }
wait_for "the agent to find its own work over the budget" scraped
curl -sf "$C/metrics" > cheap.om
expect_eq "the cheap site stays attached" \
	"$(awk '$1 == "copyprof_agent_sites{state=\"attached\"}" { print $2 }' cheap.om)" 1
expect_eq "no budget action" "$(awk '$1 == "copyprof_agent_budget_actions" { print $2 }' cheap.om)" 0
expect_eq "said once" "$(grep -c "its own work" cheap.log)" 1
c/copyload copy=8:7 || fail workload
expect_eq "the cheap site still counts exactly" "$(curl -sf "$C/profile" | jq '.sites[0].calls')" 20

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || fail "an agent exited $? on SIGTERM"; done
pids=()
expect_no_leftover_progs
