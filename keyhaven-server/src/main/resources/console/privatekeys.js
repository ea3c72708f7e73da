// The Private keys page: the organization's standalone keys with their public key, addresses and tags, and the
// private-key tags: create, add to a key, remove from a key, delete. Nothing secret is ever shown (the queries
// return public keys only) and the console offers no export.
import { query } from './api.js';
import { copyButton, perform } from './actions.js';
import { h, when } from './dom.js';

export const title = 'Private keys';

function keyItem(context, key, tags, reload) {
  const headingId = `private-key-${key.privateKeyId}`;
  const tagName = new Map(tags.map((tag) => [tag.tagId, tag.tagName]));
  const attached = key.privateKeyTags || [];
  const flags = [key.imported ? 'imported' : null, key.exported ? 'exported' : null].filter(Boolean);

  const addresses = (key.addresses || []).map((address, i) => {
    const id = `private-key-address-${key.privateKeyId}-${i}`;
    return h('li', { dataset: { address: address.address } },
      h('div', { className: 'address-line' },
        h('code', { id, className: 'address' }, address.address), copyButton(context, address.address, id)),
      h('div', { className: 'meta' }, address.format));
  });

  const tagItems = attached.map((tagId) => {
    const nameId = `private-key-tag-${key.privateKeyId}-${tagId}`;
    const name = tagName.get(tagId) ?? tagId;
    return h('li', { dataset: { tagId } },
      h('span', { id: nameId }, name), ' ',
      h('button', {
        type: 'button',
        'aria-describedby': `${nameId} ${headingId}`,
        onclick: async (event) => {
          event.target.disabled = true;
          const done = await perform(context, `Remove tag ${name} from ${key.privateKeyName}`,
            'update_private_key_tag', 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
            { privateKeyTagId: tagId, addPrivateKeyIds: [], removePrivateKeyIds: [key.privateKeyId] });
          if (done) await reload();
          else event.target.disabled = false;
        },
      }, 'Remove tag'));
  });

  const addable = tags.filter((tag) => !attached.includes(tag.tagId));
  let addForm = null;
  if (addable.length) {
    const select = h('select', { id: `add-tag-${key.privateKeyId}` },
      addable.map((tag) => h('option', { value: tag.tagId }, tag.tagName)));
    const button = h('button', { type: 'submit', 'aria-describedby': headingId }, 'Add tag');
    addForm = h('form', { className: 'inline-form', noValidate: true },
      h('label', { htmlFor: select.id }, 'Tag'), select, button);
    addForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const tagId = select.value;
      button.disabled = true;
      const done = await perform(context, `Add tag ${tagName.get(tagId)} to ${key.privateKeyName}`,
        'update_private_key_tag', 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
        { privateKeyTagId: tagId, addPrivateKeyIds: [key.privateKeyId], removePrivateKeyIds: [] });
      button.disabled = false;
      if (done) await reload();
    });
  }

  return h('li', { dataset: { privateKeyId: key.privateKeyId } },
    h('h4', { id: headingId }, key.privateKeyName),
    h('div', { className: 'meta' },
      `${key.privateKeyId} · ${key.curve} · created ${when(key.createdAt)}`
      + `${flags.length ? ` · ${flags.join(', ')}` : ''}`),
    h('div', { className: 'meta' }, 'Public key ', h('code', {}, key.publicKey)),
    addresses.length ? h('ul', { className: 'accounts', 'aria-label': `Addresses of ${key.privateKeyName}` },
      addresses) : null,
    h('p', { className: 'meta' }, tagItems.length ? 'Tags:' : 'No tags.'),
    tagItems.length ? h('ul', { className: 'tags', 'aria-label': `Tags of ${key.privateKeyName}` }, tagItems) : null,
    addForm);
}

function tagItem(context, tag, reload) {
  const nameId = `tag-${tag.tagId}`;
  return h('li', { dataset: { tagId: tag.tagId } },
    h('span', { id: nameId, className: 'tag-name' }, tag.tagName),
    h('span', { className: 'meta' }, ` · ${tag.tagId} · created ${when(tag.createdAt)} `),
    h('button', {
      type: 'button',
      'aria-describedby': nameId,
      onclick: async (event) => {
        if (!window.confirm(`Delete the private key tag ${tag.tagName}? It is removed from every key.`)) return;
        event.target.disabled = true;
        const done = await perform(context, `Delete tag ${tag.tagName}`, 'delete_private_key_tags',
          'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS', { privateKeyTagIds: [tag.tagId] });
        if (done) await reload();
        else event.target.disabled = false;
      },
    }, 'Delete tag'));
}

function createTagForm(context, reload) {
  const name = h('input', { id: 'private-key-tag-name', autocomplete: 'off', required: true });
  const button = h('button', { type: 'submit' }, 'Create tag');
  const form = h('form', { id: 'create-private-key-tag-form', noValidate: true },
    h('label', { htmlFor: name.id }, 'Tag name'), name, button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const privateKeyTagName = name.value.trim();
    if (!privateKeyTagName) {
      context.complain(new Error('the tag name is required'));
      return;
    }
    button.disabled = true;
    const done = await perform(context, `Create tag ${privateKeyTagName}`, 'create_private_key_tag',
      'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', { privateKeyTagName, privateKeyIds: [] });
    button.disabled = false;
    if (done) {
      name.value = '';
      await reload();
    }
  });
  return form;
}

export async function render(context) {
  const keys = h('ul', { id: 'private-key-list', className: 'cards', 'aria-labelledby': 'private-key-list-heading' });
  const noKeys = h('p', { hidden: true }, 'No private keys.');
  const tagList = h('ul', { id: 'private-key-tag-list', className: 'cards',
    'aria-labelledby': 'private-key-tags-heading' });
  const noTags = h('p', { hidden: true }, 'No private key tags.');
  const reload = async () => {
    try {
      const [keyAnswer, tagAnswer] = await Promise.all([
        query(context.session, 'list_private_keys'),
        query(context.session, 'list_private_key_tags'),
      ]);
      const tags = tagAnswer.privateKeyTags || [];
      const privateKeys = keyAnswer.privateKeys || [];
      keys.replaceChildren(...privateKeys.map((key) => keyItem(context, key, tags, reload)));
      noKeys.hidden = privateKeys.length > 0;
      tagList.replaceChildren(...tags.map((tag) => tagItem(context, tag, reload)));
      noTags.hidden = tags.length > 0;
    } catch (error) {
      context.complain(error);
    }
  };
  context.container.append(
    h('button', { type: 'button', onclick: () => reload() }, 'Refresh'),
    h('section', { 'aria-labelledby': 'private-key-list-heading' },
      h('h3', { id: 'private-key-list-heading' }, 'Keys'), noKeys, keys),
    h('section', { 'aria-labelledby': 'private-key-tags-heading' },
      h('h3', { id: 'private-key-tags-heading' }, 'Tags'),
      createTagForm(context, reload), noTags, tagList));
  await reload();
}
