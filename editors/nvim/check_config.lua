-- Checks polyasm.lua, the configuration docs/editors.md gives for Neovim 0.7 to 0.10, as its
-- user meets it: Neovim starts with it as its init file on the files given in
-- POLYASM_NVIM_FILES (space-separated, in the current folder), then this script waits for each
-- file's diagnostics, tells which clients each file is attached to and whether it has the
-- keys, and presses `gd` on LINE:COL of POLYASM_NVIM_GD (`FILE LINE COL`). It writes tab-
-- separated lines to POLYASM_NVIM_OUT for test.sh to check:
--   diagnostic FILE LINE:COL CODE      (each, once the file has some)
--   client FILE NAME ID                (each client attached to FILE)
--   keys FILE K gd                     (the keys FILE has, of these two)
--   gd FILE LINE:COL                   (where the cursor went)
--   timeout WHAT / error WHAT / done
local wait_ms = tonumber(vim.env.POLYASM_NVIM_WAIT_MS or "") or 10000
local out_lines = {}

local function emit(...)
  table.insert(out_lines, table.concat({ ... }, "\t"))
end

-- The files whose diagnostics have come, empty or not: a request about a file is only made
-- once the server has checked it.
local published = {}
local on_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  if result ~= nil then
    published[vim.fn.fnamemodify(vim.uri_to_fname(result.uri), ":t")] = true
  end
  return on_publish(err, result, ctx, config)
end

local function main()
  local files = vim.split(vim.env.POLYASM_NVIM_FILES or "", " ", { trimempty = true })
  local clients = vim.lsp.get_clients or vim.lsp.get_active_clients
  vim.o.hidden = true
  for _, file in ipairs(files) do
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    local buffer = vim.api.nvim_get_current_buf()
    if vim.wait(wait_ms, function()
      return #vim.diagnostic.get(buffer) > 0
    end, 20) then
      for _, d in ipairs(vim.diagnostic.get(buffer)) do
        emit("diagnostic", file, (d.lnum + 1) .. ":" .. (d.col + 1), tostring(d.code))
      end
    else
      emit("timeout", "diagnostics " .. file)
    end
    for _, client in ipairs(clients()) do
      if vim.lsp.buf_is_attached(buffer, client.id) then
        emit("client", file, client.name, client.id)
      end
    end
    local keys = { "keys", file }
    for _, key in ipairs({ "K", "gd" }) do
      if vim.fn.maparg(key, "n", false, true).buffer == 1 then
        table.insert(keys, key)
      end
    end
    emit(unpack(keys))
  end

  local gd = vim.split(vim.env.POLYASM_NVIM_GD or "", " ", { trimempty = true })
  if #gd == 3 then
    vim.cmd("edit " .. vim.fn.fnameescape(gd[1]))
    if not vim.wait(wait_ms, function()
      return published[gd[1]]
    end, 20) then
      emit("timeout", "diagnostics " .. gd[1])
    end
    local start = { tonumber(gd[2]), tonumber(gd[3]) - 1 }
    vim.api.nvim_win_set_cursor(0, start)
    vim.cmd("normal gd")
    if vim.wait(wait_ms, function()
      local now = vim.api.nvim_win_get_cursor(0)
      return now[1] ~= start[1] or now[2] ~= start[2]
    end, 20) then
      local now = vim.api.nvim_win_get_cursor(0)
      emit("gd", vim.fn.expand("%:t"), now[1] .. ":" .. (now[2] + 1))
    else
      emit("timeout", "gd " .. table.concat(gd, " "))
    end
  end
end

local ok, problem = pcall(main)
if not ok then
  emit("error", (tostring(problem):gsub("[\t\n]", " ")))
end
emit("done")
vim.fn.writefile(out_lines, vim.env.POLYASM_NVIM_OUT)
vim.cmd("qall!")
