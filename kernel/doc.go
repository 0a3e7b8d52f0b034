// Package kernel is portlab's Jupyter kernel: it speaks the Jupyter
// messaging protocol 5.3 over ZeroMQ (the pure-Go go-zeromq/zmq4, no cgo)
// and runs the cells of a notebook in a session.Session. The kernel is a
// host: it imports no package of the portlab library; the program that
// runs it hands it the packages cells may call (Options.Host, a
// session.Host with their symbol tables and documentation) and registers
// viewers for their values (display.AddViewer) — the portlab command hands
// it the library, plots, gonum and gonum/plot. Serve binds the shell,
// control, stdin, IOPub and heartbeat sockets to the addresses of a
// connection file, signs every message with the file's key (HMAC, the
// scheme it names), drops and logs messages whose signature is wrong, and
// answers kernel_info, execute, complete, inspect, is_complete, history,
// comm_info, shutdown and interrupt requests; cells ask for input with
// input_request on the stdin channel.
//
// Shell requests are handled one at a time, control requests on their own
// goroutine, so that interrupt_request (the kernelspec's interrupt_mode is
// "message") stops a running cell: the cell's context, which the cell sees
// as ctx, is cancelled and an interpreted loop stops within a second. Every
// reply carries a status, outputs are published on IOPub with the request
// as parent between busy and idle, and what a cell prints is streamed while
// it runs. WriteKernelSpec writes the kernelspec that `portlab install`
// installs.
package kernel
