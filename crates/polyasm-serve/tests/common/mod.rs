//! A server on a temporary folder, in process, and a page that talks to it over a real
//! WebSocket: shared by the tests and the bench.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use polyasm_core::Registry;
use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

pub fn registry() -> &'static Registry {
    polyasm::registry()
}

/// A server on a temporary folder, serving on a thread of its own.
pub struct Server {
    pub dir: tempfile::TempDir,
    pub address: String,
}

pub const UV: &str =
    "getComponent0(pc, s0)\ngetComponent0(s, s3)\nreciprocal(s3, s2)\nmultiply(s0, s2, s0)\nsetComponent0(c, s0)\n";

impl Server {
    pub fn start(files: &[(&str, &str)]) -> Server {
        Server::start_on(files, polyasm_serve::Device::Cpu)
    }

    pub fn start_on(files: &[(&str, &str)], device: polyasm_serve::Device) -> Server {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let settings = polyasm_serve::Settings {
            paths: vec![dir.path().to_path_buf()],
            host: None,
            port: 0,
            device,
        };
        let bound = polyasm_serve::bind(registry(), &settings).expect("the server starts");
        let address = bound.address.to_string();
        std::thread::spawn(move || bound.serve());
        Server { dir, address }
    }

    /// The name the page gives a file of the folder.
    pub fn name(&self, file: &str) -> String {
        format!("{}/{file}", self.dir.path().display())
    }

    pub fn connect(&self) -> Page {
        self.connect_with(&[])
    }

    pub fn connect_with(&self, headers: &[(&'static str, &str)]) -> Page {
        let mut request = format!("ws://{}/ws", self.address).into_client_request().unwrap();
        for (name, value) in headers {
            request
                .headers_mut()
                .insert(*name, tungstenite::http::HeaderValue::from_str(value).unwrap());
        }
        let stream = TcpStream::connect(&self.address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let (socket, _) = tungstenite::client(request, stream).expect("the WebSocket opens");
        let mut page = Page { socket };
        assert_eq!(page.next_text()["type"], "hello");
        assert_eq!(page.next_text()["type"], "files");
        page
    }

    /// An HTTP GET with `headers`: the status line and the body.
    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> (String, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response.lines().next().unwrap_or("").to_string();
        let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
        (status, body)
    }

    pub fn host(&self) -> String {
        self.address.clone()
    }
}

pub struct Page {
    pub socket: WebSocket<TcpStream>,
}

impl Page {
    pub fn send(&mut self, message: Value) {
        self.socket.send(Message::Text(message.to_string().into())).unwrap();
    }

    pub fn next(&mut self) -> Message {
        loop {
            match self.socket.read().expect("a message") {
                Message::Ping(_) | Message::Pong(_) => continue,
                message => return message,
            }
        }
    }

    pub fn next_text(&mut self) -> Value {
        match self.next() {
            Message::Text(text) => serde_json::from_str(text.as_str()).unwrap(),
            other => panic!("expected text, got {other:?}"),
        }
    }

    /// Reads until a text message of `kind` comes (others are passed over), for at most 20 s.
    pub fn until(&mut self, kind: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Message::Text(text) = self.next() {
                let value: Value = serde_json::from_str(text.as_str()).unwrap();
                if value["type"] == kind {
                    return value;
                }
            }
        }
        panic!("no {kind} message came");
    }

    /// Reads until a binary message comes.
    pub fn picture(&mut self) -> Vec<u8> {
        loop {
            match self.next() {
                Message::Binary(bytes) => return bytes.to_vec(),
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    assert_ne!(value["type"], "frame_error", "{value}");
                }
                _ => {}
            }
        }
    }

    pub fn open(&mut self, name: &str) -> Value {
        self.send(json!({"type": "open", "path": name}));
        self.until("file")
    }
}

pub fn le32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}
