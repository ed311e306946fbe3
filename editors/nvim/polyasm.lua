-- polyasm lsp in Neovim 0.7 to 0.10 (0.11 has vim.lsp.config: see docs/editors.md): one server
-- for the files of all five targets, K for hover and gd for go to definition.
local polyasm_client = nil
vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
  pattern = { "*.vu", "*.vsh", "*.mx", "*.sasm", "*.pp" },
  callback = function(args)
    if polyasm_client == nil or vim.lsp.client_is_stopped(polyasm_client) then
      polyasm_client = vim.lsp.start_client({
        name = "polyasm",
        cmd = { "polyasm", "lsp" },
        root_dir = vim.fn.getcwd(),
        on_attach = function(_, buffer)
          vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = buffer })
          vim.keymap.set("n", "gd", vim.lsp.buf.definition, { buffer = buffer })
        end,
      })
    end
    vim.lsp.buf_attach_client(args.buf, polyasm_client)
  end,
})
