"""The tutorials' select_device(1), on whatever this machine has: the devices are listed, and
a device that does not exist is a clear error naming the ones that do."""
import kcc

for d in kcc.devices():
    print("%d: %s (%s, %s, %d MiB, %d compute units)" % (d.index, d.name, d.backend, d.type,
                                                         d.memory >> 20, d.compute_units))
try:
    d = kcc.select_device(1)
    print("selected device 1: %s" % d.name)
except kcc.NoDeviceError as e:
    print("error: %s" % e)
