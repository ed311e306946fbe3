//! The Masfix virtual machine.
