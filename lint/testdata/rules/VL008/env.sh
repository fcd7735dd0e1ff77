# want:1 VL008
export GLOO_SOCKET_IFNAME=eth0
echo "sourced by run.sh"
