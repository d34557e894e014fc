#!/bin/sh
# Starts, on loopback, every stand-in the README's tour uses, and prints the shell lines that point
# traveltimes at them. From the package's folder:
#
#     eval "$(Tests/Support/stand_ins.sh)"
#
# The services (each Tests/Support/*_server.py, serving recorded answers): HERE, TomTom and Google;
# Transitous and Nominatim; OSRM and Valhalla; the Autobahn API; Home Assistant (token YOUR-LONG-LIVED-TOKEN); an MQTT
# broker (user ha, password secret). Programs: `crontab` (its table in a file) and `systemctl` (it
# records its arguments), first on PATH. The servers stop after an hour ($STAND_IN_SECONDS) or when
# `kill $TRAVELTIMES_STAND_INS` ends them; their logs and controls are in $DIR (default
# /tmp/tt-stand-ins), where the README's /tmp/transitous.json and /tmp/engines.json are links to
# Transitous's and the engines' controls.
# Test-only: nothing here is for a real setup.
set -eu
DIR=${1:-/tmp/tt-stand-ins}
SUPPORT=$(cd "$(dirname "$0")" && pwd)
SECONDS_UP=${STAND_IN_SECONDS:-3600}
mkdir -p "$DIR/bin"
: > "$DIR/pids"

# start NAME SCRIPT ARGS...: runs a server fed by a pipe that stays open (it ends when its stdin
# does), and waits for the port it prints first.
start() {
    name=$1
    shift
    rm -f "$DIR/$name.port"
    # Its stdin is a sleep's pipe: `kill` of the sleep (in pids) closes it, and the server ends.
    (sleep "$SECONDS_UP" & echo $! >> "$DIR/pids"; wait) | STAND_IN_SECONDS=$SECONDS_UP python3 "$SUPPORT/$@" > "$DIR/$name.port" 2>"$DIR/$name.err" &
    tries=0
    until [ -s "$DIR/$name.port" ] && [ "$(wc -l < "$DIR/$name.port")" -ge 1 ]; do
        tries=$((tries + 1))
        [ "$tries" -le 100 ] || { echo "echo 'stand_ins.sh: $name did not start (see $DIR/$name.err)' >&2"; exit 1; }
        sleep 0.1
    done
    head -n 1 "$DIR/$name.port"
}

echo '{}' > "$DIR/transitous.json"
echo '{}' > "$DIR/engines.json"
echo '{"token": "YOUR-LONG-LIVED-TOKEN"}' > "$DIR/homeassistant.json"
ln -sf "$DIR/transitous.json" /tmp/transitous.json
ln -sf "$DIR/engines.json" /tmp/engines.json
providers=$(start providers provider_server.py "$DIR/providers.log")
transitous=$(start transitous transitous_server.py "$DIR/transitous.log" "$DIR/transitous.json")
engines=$(start engines engine_server.py "$DIR/engines.log" "$DIR/engines.json")
autobahn=$(start autobahn autobahn_server.py "$DIR/autobahn.log")
homeassistant=$(start homeassistant homeassistant_server.py "$DIR/homeassistant.log" "$DIR/homeassistant.json")
broker=$(start mqtt mqtt_server.py "$DIR/retained.json" ha secret)

cat > "$DIR/bin/crontab" <<EOF
#!/bin/sh
case "\$1" in
  -l) if [ -f '$DIR/crontab' ]; then cat '$DIR/crontab'; else echo "no crontab for \$(id -un)" >&2; exit 1; fi ;;
  -) cat > '$DIR/crontab' ;;
  -r) rm -f '$DIR/crontab' ;;
  *) exit 2 ;;
esac
EOF
printf '#!/bin/sh\necho "$*" >> %s/systemctl.log\n' "$DIR" > "$DIR/bin/systemctl"
chmod 755 "$DIR/bin/crontab" "$DIR/bin/systemctl"

cat <<EOF
export PATH='$DIR/bin':"\$PATH"
export TRAVELTIMES_HERE_URL=http://127.0.0.1:$providers/ TRAVELTIMES_TOMTOM_URL=http://127.0.0.1:$providers TRAVELTIMES_GOOGLE_URL=http://127.0.0.1:$providers
export TRAVELTIMES_TRANSITOUS_URL=http://127.0.0.1:$transitous TRAVELTIMES_NOMINATIM_URL=http://127.0.0.1:$transitous
export TRAVELTIMES_OSRM_URL=http://127.0.0.1:$engines TRAVELTIMES_VALHALLA_URL=http://127.0.0.1:$engines TRAVELTIMES_AUTOBAHN_URL=http://127.0.0.1:$autobahn
export TRAVELTIMES_STAND_INS='$(tr '\n' ' ' < "$DIR/pids")'
echo 'Stand-ins up for $SECONDS_UP s. Home Assistant: http://127.0.0.1:$homeassistant (the README says http://homeassistant.local:8123); MQTT: mqtt://ha:secret@127.0.0.1:$broker (broker.local:1883).' >&2
EOF
