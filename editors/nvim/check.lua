-- Drives `polyasm lsp` from Neovim's own LSP client, as an editor user would: opens files,
-- waits for their diagnostics, asks for hovers and definitions, and writes what came back as
-- tab-separated lines for editors/nvim/test.sh to check. It only reports; it judges nothing.
--
-- Run by test.sh as
--   nvim --headless --clean -u NONE -c 'lua dofile(vim.env.POLYASM_NVIM_SCRIPT)'
-- with these in the environment:
--   POLYASM_NVIM_SCRIPT   this file
--   POLYASM_NVIM_SERVER   the polyasm binary (started as `BINARY lsp`)
--   POLYASM_NVIM_DIR      the folder of the files named in the queries
--   POLYASM_NVIM_QUERIES  one query a line, fields separated by tabs:
--                           diagnostics FILE         open FILE, report its diagnostics
--                           hover FILE LINE COL      the hover there (1-based, as `polyasm check`)
--                           definition FILE LINE COL where the name there is declared
--   POLYASM_NVIM_OUT      where the lines go:
--                           diagnostic FILE LINE:COL CODE SEVERITY MESSAGE  (sorted by place)
--                           diagnostics FILE COUNT
--                           hover FILE LINE:COL TEXT             (`(none)` for no hover)
--                           definition FILE LINE:COL FILE:LINE:COL ...   (`(none)`)
--                           timeout WHAT / error WHAT
--                           exit CODE SIGNAL                     (the server's, after shutdown)
--                           done
--   POLYASM_NVIM_WAIT_MS  how long to wait for each answer (default 10000)
-- Text is written with `\` as `\\`, and line breaks and tabs as `\n`, `\r` and `\t`.
--
-- It uses the client API of Neovim 0.7 (vim.lsp.start_client, buf_attach_client,
-- buf_request_sync, vim.diagnostic.get), which later versions still have; from 0.11 on, where
-- start_client is deprecated, vim.lsp.start starts the client instead.

local env = vim.env
local wait_ms = tonumber(env.POLYASM_NVIM_WAIT_MS or "") or 10000
local out_lines = {}

local function escape(text)
  return (text:gsub("\\", "\\\\"):gsub("\n", "\\n"):gsub("\r", "\\r"):gsub("\t", "\\t"))
end

local function emit(...)
  local fields = { ... }
  for i, field in ipairs(fields) do
    fields[i] = escape(tostring(field))
  end
  table.insert(out_lines, table.concat(fields, "\t"))
end

local function flush()
  vim.fn.writefile(out_lines, env.POLYASM_NVIM_OUT)
end

local function required(name)
  local value = env[name]
  if value == nil or value == "" then
    error(name .. " is not set")
  end
  return value
end

local function read_queries(path)
  local queries = {}
  for _, line in ipairs(vim.fn.readfile(path)) do
    if line ~= "" then
      local fields = vim.split(line, "\t", { plain = true })
      table.insert(queries, {
        kind = fields[1],
        file = fields[2],
        line = tonumber(fields[3]),
        col = tonumber(fields[4]),
      })
    end
  end
  return queries
end

-- The hover's text, whichever of the protocol's shapes it came in.
local function hover_text(contents)
  if type(contents) == "string" then
    return contents
  elseif type(contents) ~= "table" then
    return ""
  elseif contents.value ~= nil then
    return contents.value
  end
  local parts = {}
  for _, part in ipairs(contents) do
    table.insert(parts, hover_text(part))
  end
  return table.concat(parts, "\n")
end

local function main()
  local server = required("POLYASM_NVIM_SERVER")
  local dir = vim.fn.fnamemodify(required("POLYASM_NVIM_DIR"), ":p")
  required("POLYASM_NVIM_OUT")
  local queries = read_queries(required("POLYASM_NVIM_QUERIES"))

  -- A place as the lines show it: the file relative to the folder, 1-based line and column.
  local function file_of(uri)
    local path = vim.uri_to_fname(uri)
    if path:sub(1, #dir) == dir then
      return path:sub(#dir + 1)
    end
    return path
  end

  local published = {}
  local exited = nil
  local config = {
    name = "polyasm",
    cmd = { server, "lsp" },
    root_dir = dir,
    handlers = {
      ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
        if result ~= nil then
          published[file_of(result.uri)] = true
        end
        return vim.lsp.handlers["textDocument/publishDiagnostics"](err, result, ctx, config)
      end,
    },
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  }
  -- 0.11 deprecates start_client for start, which can leave the attaching to the caller.
  local client_id
  if vim.fn.has("nvim-0.11") == 1 then
    client_id = vim.lsp.start(config, { attach = false })
  else
    client_id = vim.lsp.start_client(config)
  end
  if client_id == nil then
    emit("error", "the client did not start: " .. server)
    return
  end

  local buffers = {}
  local function buffer(file)
    if buffers[file] == nil then
      local bufnr = vim.fn.bufadd(dir .. file)
      vim.fn.bufload(bufnr)
      vim.lsp.buf_attach_client(bufnr, client_id)
      buffers[file] = bufnr
    end
    return buffers[file]
  end

  -- Open every file first, so that the server sees them all before the first answer is read.
  for _, query in ipairs(queries) do
    buffer(query.file)
  end

  local function initialized()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end
  vim.wait(wait_ms, function()
    return initialized() or exited ~= nil
  end, 20)
  if exited ~= nil then
    emit("error", "the server exited with status " .. exited.code .. " before it answered `initialize`")
    return
  elseif not initialized() then
    emit("timeout", "initialize")
    return
  end

  -- A server that leaves one request unanswered is not asked the rest: the first such request
  -- is the one to report, and the wait stays bounded.
  local gave_up = false
  for _, query in ipairs(queries) do
    if gave_up then
      break
    end
    local bufnr = buffer(query.file)
    local place = query.line and (query.line .. ":" .. query.col) or ""
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      position = query.line and { line = query.line - 1, character = query.col - 1 } or nil,
    }
    if query.kind == "diagnostics" then
      if not vim.wait(wait_ms, function()
        return published[query.file]
      end, 20) then
        emit("timeout", "diagnostics " .. query.file)
        gave_up = true
      else
        local found = vim.diagnostic.get(bufnr)
        table.sort(found, function(a, b)
          return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
        end)
        for _, d in ipairs(found) do
          local severity = string.lower(vim.diagnostic.severity[d.severity] or tostring(d.severity))
          emit(
            "diagnostic",
            query.file,
            (d.lnum + 1) .. ":" .. (d.col + 1),
            d.code or "(no code)",
            severity,
            d.message
          )
        end
        emit("diagnostics", query.file, #found)
      end
    elseif query.kind == "hover" or query.kind == "definition" then
      local method = query.kind == "hover" and "textDocument/hover" or "textDocument/definition"
      local replies = vim.lsp.buf_request_sync(bufnr, method, params, wait_ms)
      local reply = replies and replies[client_id]
      if reply == nil then
        emit("timeout", query.kind .. " " .. query.file .. " " .. place)
        gave_up = true
      elseif reply.err ~= nil then
        emit("error", query.kind .. " " .. query.file .. " " .. place .. ": " .. vim.inspect(reply.err))
      elseif query.kind == "hover" then
        local result = reply.result
        emit("hover", query.file, place, result and hover_text(result.contents) or "(none)")
      else
        local result = reply.result
        if result ~= nil and (result.uri ~= nil or result.targetUri ~= nil) then
          result = { result }
        end
        local fields = { "definition", query.file, place }
        for _, location in ipairs(result or {}) do
          local uri = location.uri or location.targetUri
          local range = location.range or location.targetSelectionRange
          table.insert(
            fields,
            file_of(uri) .. ":" .. (range.start.line + 1) .. ":" .. (range.start.character + 1)
          )
        end
        if #fields == 3 then
          table.insert(fields, "(none)")
        end
        emit(unpack(fields))
      end
    else
      emit("error", "unknown query `" .. tostring(query.kind) .. "`")
    end
  end

  -- shutdown, then exit: the server should end with status 0.
  vim.lsp.stop_client(client_id)
  if vim.wait(wait_ms, function()
    return exited ~= nil
  end, 20) then
    emit("exit", exited.code, exited.signal)
  else
    emit("timeout", "server exit")
  end
end

local ok, problem = pcall(main)
if not ok then
  emit("error", tostring(problem))
end
emit("done")
local written, write_problem = pcall(flush)
if not written then
  io.stderr:write("check.lua: cannot write the output: " .. tostring(write_problem) .. "\n")
  vim.cmd("cquit 2")
end
vim.cmd("qall!")
